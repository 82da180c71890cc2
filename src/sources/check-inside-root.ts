import { realpathSync } from 'node:fs';
import { relative, isAbsolute, sep } from 'node:path';
import { InputError } from './input-error.js';

/**
 * Refuses a path that leads outside `root` (the directory being read) once symbolic links are resolved (any link on the way:
 * the file itself or one of its directories). `root` must already be a real path. A path that does
 * not exist passes (the caller decides what absence means); a link inside the root is followed.
 * Errors with an `InputError` naming the path and where it leads. The lookup is synchronous (libc's
 * `realpath`, as `fs.promises.realpath` makes it, without the thread-pool round trip: a Harbor trial
 * checks a dozen paths).
 *
 * @example
 * await checkInsideRoot(await realpath('jobs/j1'), 'jobs/j1/t1/agent/trajectory.json');
 */
export async function checkInsideRoot(root: string, path: string): Promise<void> {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    return;
  }
  const rel = relative(root, real);
  if (rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`))) return;
  throw new InputError(
    `refused: a symbolic link leads outside the directory read, ${root} (to ${real}); ` +
      'copy the file in or name its real location',
    { file: path },
  );
}
