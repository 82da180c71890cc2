import { FilesystemHandle } from './filesystem-handle.js';
import { pySplitlines } from './py-splitlines.js';

/**
 * Read handle over a log directory (spec §5); paths cannot escape its root.
 *
 * @example
 * const logs = await evidence.logs();
 * const last = await logs.tail('agent.log', 20); // last 20 lines joined by '\n', no trailing newline
 */
export class LogsHandle {
  readonly #fs: FilesystemHandle;

  constructor(root: string) {
    this.#fs = new FilesystemHandle(root);
  }

  /** The resolved root directory. */
  get root(): string {
    return this.#fs.root;
  }

  /** Relative posix paths of every log file, sorted. */
  async listFiles(): Promise<string[]> {
    return this.#fs.listFiles('**/*');
  }

  /** One log file's full text. */
  async readText(file: string): Promise<string> {
    return this.#fs.readText(file);
  }

  /**
   * The last `lines` lines joined by `\n` (Python `splitlines()[-lines:]`, so `lines = 0` gives the
   * whole file, as in the SDK).
   */
  async tail(file: string, lines = 50): Promise<string> {
    const all = pySplitlines(await this.#fs.readText(file));
    const start = lines === 0 ? 0 : Math.max(0, all.length - lines);
    return all.slice(lines < 0 ? Math.min(-lines, all.length) : start).join('\n');
  }
}
