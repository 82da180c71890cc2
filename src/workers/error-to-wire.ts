import { BundleReadError } from '../bundle/bundle-read-error.js';
import { InputError } from '../sources/input-error.js';
import type { ErrorWire } from './worker-messages.js';

/**
 * An error as data that crosses threads (see `errorFromWire`): an `InputError` keeps its file, line,
 * offset and field, a `BundleReadError` its issues, anything else its message.
 *
 * @example
 * port.postMessage({ type: 'failed', id, error: errorToWire(error) });
 */
export function errorToWire(error: unknown): ErrorWire {
  if (error instanceof InputError) {
    const { message, file, line, offset, field } = error;
    return { kind: 'input', message, file, line, offset, field };
  }
  if (error instanceof BundleReadError) return { kind: 'bundle', issues: [...error.issues] };
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}
