/**
 * What went wrong reading a gzip file, said plainly: a stream that ends early is cut off, any other
 * zlib failure means the file is corrupt. Other errors keep their message.
 *
 * @example
 * gzipErrorReason(Object.assign(new Error('unexpected end of file'), { code: 'Z_BUF_ERROR' }));
 * // 'gzip stream cut off (truncated file): unexpected end of file'
 */
export function gzipErrorReason(error: unknown): string {
  const { message, code } = error as { message?: string; code?: unknown };
  const text = message ?? String(error);
  if (code === 'Z_BUF_ERROR' || text === 'unexpected end of file')
    return `gzip stream cut off (truncated file): ${text}`;
  if (typeof code === 'string' && code.startsWith('Z_')) return `corrupt gzip: ${text}`;
  return text;
}
