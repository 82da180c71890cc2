/**
 * POSTs an OTLP/HTTP protobuf traces body to `${baseUrl}/v1/traces`.
 *
 * @example
 * expect((await postTraces(url, body)).status).toBe(200);
 */
export function postTraces(baseUrl: string, body: Uint8Array): Promise<Response> {
  return fetch(`${baseUrl}/v1/traces`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-protobuf' },
  });
}
