import type { Summary } from '../model/summary.js';
import { summaryJsonBytes } from './summary-json-bytes.js';
import type { TaskValueFloatLookup } from './summary-to-wire.js';

/**
 * The text of `summary.json` (`json.dumps(summary, indent=2, sort_keys=True)`, plus the file's final
 * newline with `newline: true`) in chunks of about 1 MiB: the ASCII buffers of `summaryJsonBytes`
 * as strings. Same text as `pythonJson(summaryToWire(summary, isFloat), { indent: 2 })`.
 *
 * @example
 * for (const chunk of summaryJsonChunks(summary, floats.lookupFor(summary.task_metric_values))) out.write(chunk);
 */
export function* summaryJsonChunks(
  summary: Summary,
  isFloat?: TaskValueFloatLookup,
  options: { newline?: boolean } = {},
): Generator<string> {
  for (const bytes of summaryJsonBytes(summary, isFloat, options)) yield bytes.toString('latin1');
}
