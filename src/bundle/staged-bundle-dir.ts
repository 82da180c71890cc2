import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Prefix of the staging directories a writer keeps inside a bundle until it commits. */
export const STAGING_PREFIX = '.evalstream-staging-';

/**
 * A bundle directory being written: files go to a staging directory inside it and are renamed into
 * place by `commit` (each rename atomic, in the order given), so a crash mid-write leaves the
 * previous files intact and no half-written file under a bundle name. Evidence that already lives in
 * the directory is never touched.
 *
 * @example
 * const staged = await StagedBundleDir.open('/runs/r1');
 * await staged.writeText('summary.json', text);
 * await staged.commit(['summary.json']);
 */
export class StagedBundleDir {
  private constructor(
    readonly dir: string,
    readonly staging: string,
  ) {}

  /** Creates `dir` (and parents) if needed, and a fresh staging directory inside it. */
  static async open(dir: string): Promise<StagedBundleDir> {
    const abs = resolve(dir);
    await mkdir(abs, { recursive: true });
    const staging = join(abs, STAGING_PREFIX + randomBytes(4).toString('hex'));
    await mkdir(staging);
    return new StagedBundleDir(abs, staging);
  }

  /** The staging path of a bundle file. */
  file(name: string): string {
    return join(this.staging, name);
  }

  /** Writes a whole file into staging. */
  async writeText(name: string, text: string): Promise<void> {
    await writeFile(this.file(name), text, 'utf8');
  }

  /**
   * Writes a file into staging from text chunks (buffered, for big JSON documents) and resolves to the
   * SHA-256 (hex) of the bytes written.
   */
  async writeChunks(name: string, chunks: Iterable<string>): Promise<string> {
    const handle = await open(this.file(name), 'w');
    const hash = createHash('sha256');
    const flush = async (text: string): Promise<void> => {
      const bytes = Buffer.from(text, 'utf8');
      hash.update(bytes);
      await handle.write(bytes);
    };
    try {
      let buffer = '';
      for (const chunk of chunks) {
        buffer += chunk;
        if (buffer.length >= 1 << 20) {
          await flush(buffer);
          buffer = '';
        }
      }
      if (buffer !== '') await flush(buffer);
    } finally {
      await handle.close();
    }
    return hash.digest('hex');
  }

  /** Moves the named staged files into the bundle directory, in order, then removes staging. */
  async commit(names: readonly string[]): Promise<void> {
    for (const name of names) await rename(this.file(name), join(this.dir, name));
    await this.abort();
  }

  /** Removes the staging directory and whatever is still in it. */
  async abort(): Promise<void> {
    await rm(this.staging, { recursive: true, force: true });
  }
}
