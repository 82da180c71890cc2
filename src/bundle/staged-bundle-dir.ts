import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Prefix of the staging directories a writer keeps inside a bundle until it commits. */
export const STAGING_PREFIX = '.evalstream-staging-';

/** `<prefix><pid>-<hex>`: the writer's process id, so a later writer can tell a dead one's leftovers. */
const STAGING_NAME = /^\.evalstream-staging-(?:(\d+)-)?[0-9a-f]+$/;

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

  /**
   * Creates `dir` (and parents) if needed, removes the staging directories a killed writer left there
   * (its process is gone; directories of live writers are kept), and makes a fresh staging directory.
   */
  static async open(dir: string): Promise<StagedBundleDir> {
    const abs = resolve(dir);
    await mkdir(abs, { recursive: true });
    await removeStaleStaging(abs);
    const staging = join(abs, `${STAGING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(staging);
    return new StagedBundleDir(abs, staging);
  }

  /**
   * Writes whole files into `dir` through a staging directory and renames them into place in the
   * order given (a failure leaves no half-written file and no staging directory).
   */
  static async writeFiles(dir: string, files: Record<string, string>): Promise<void> {
    const staged = await StagedBundleDir.open(dir);
    try {
      for (const [name, text] of Object.entries(files)) await staged.writeText(name, text);
      await staged.commit(Object.keys(files));
    } catch (error) {
      await staged.abort();
      throw error;
    }
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
   * Writes a file into staging from chunks (text chunks are buffered up to 1 MiB and written as UTF-8;
   * byte chunks are written as they come). With `compareWith` (a file path), resolves to whether the
   * bytes written equal that file's bytes (read alongside, stopping at the first difference); else
   * to false.
   */
  async writeChunks(
    name: string,
    chunks: Iterable<string | Uint8Array>,
    compareWith: string | null = null,
  ): Promise<boolean> {
    const handle = await open(this.file(name), 'w');
    const old = compareWith === null ? null : await open(compareWith, 'r').catch(() => null);
    let same = old !== null;
    let offset = 0;
    let scratch: Buffer | null = null;
    const flush = async (bytes: Uint8Array): Promise<void> => {
      if (same && old !== null) {
        if (scratch === null || scratch.length < bytes.length) scratch = Buffer.allocUnsafe(bytes.length);
        const { bytesRead } = await old.read(scratch, 0, bytes.length, offset);
        same = bytesRead === bytes.length && Buffer.compare(scratch.subarray(0, bytesRead), bytes) === 0;
      }
      offset += bytes.length;
      await handle.write(bytes);
    };
    try {
      let buffer = '';
      for (const chunk of chunks) {
        if (typeof chunk !== 'string') {
          if (buffer !== '') await flush(Buffer.from(buffer, 'utf8'));
          buffer = '';
          await flush(chunk);
          continue;
        }
        buffer += chunk;
        if (buffer.length >= 1 << 20) {
          await flush(Buffer.from(buffer, 'utf8'));
          buffer = '';
        }
      }
      if (buffer !== '') await flush(Buffer.from(buffer, 'utf8'));
      if (same && old !== null) same = (await old.stat()).size === offset;
    } finally {
      await handle.close();
      await old?.close();
    }
    return same;
  }

  /**
   * Moves the named staged files into the bundle directory (or into `into`, a directory on the same
   * file system, created if needed), in order, then removes staging.
   */
  async commit(names: readonly string[], into: string = this.dir): Promise<void> {
    const target = resolve(into);
    if (target !== this.dir) await mkdir(target, { recursive: true });
    for (const name of names) await rename(this.file(name), join(target, name));
    await this.abort();
  }

  /** Removes the staging directory and whatever is still in it. */
  async abort(): Promise<void> {
    await rm(this.staging, { recursive: true, force: true });
  }
}

/** Removes `dir`'s staging directories whose writer process no longer exists (a killed run's). */
async function removeStaleStaging(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const match = STAGING_NAME.exec(name);
    if (match === null) continue;
    const pid = match[1] === undefined ? null : Number(match[1]);
    if (pid !== null && isAlive(pid)) continue;
    await rm(join(dir, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
