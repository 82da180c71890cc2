import { BundleReadError } from '../bundle/bundle-read-error.js';
import { InputError } from '../sources/input-error.js';
import type { ErrorWire } from './worker-messages.js';

/**
 * The error `errorToWire` described, rebuilt on this thread with its class and its exact message, so
 * the CLI gives it the same exit code and text as when one thread read the input.
 *
 * @example
 * throw errorFromWire({ kind: 'other', message: 'metric failed' });
 */
export function errorFromWire(wire: ErrorWire): Error {
  switch (wire.kind) {
    case 'input': {
      const error = new InputError('', wire);
      error.message = wire.message;
      return error;
    }
    case 'bundle':
      return new BundleReadError(wire.issues);
    case 'other':
      return new Error(wire.message);
  }
}
