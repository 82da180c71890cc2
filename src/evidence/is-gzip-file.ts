import { open } from 'node:fs/promises';

/**
 * Whether a file starts with the gzip magic bytes (1f 8b); reads only its first two bytes.
 *
 * @example
 * const stream = (await isGzipFile(path)) ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
 */
export async function isGzipFile(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await fh.close();
  }
}
