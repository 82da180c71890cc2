/**
 * A protobuf length-delimited field (wire type 2): tag, varint length, then `parts` concatenated.
 * The robustness tests build OTLP requests from these by hand, hostile ones included.
 *
 * @example
 * lengthDelimited(5, Buffer.from('chat')); // Span.name = "chat"
 */
export function lengthDelimited(num: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = [(num << 3) | 2];
  let n = body.length;
  while (n > 0x7f) {
    head.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  head.push(n);
  return Buffer.concat([Buffer.from(head), body]);
}
