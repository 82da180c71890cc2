import type { PyJson } from '../../pycompat/py-json.js';
import { FieldList } from './field-list.js';

/**
 * What {@link readRolloutRow} extracted from one row, reused from row to row: the indices, the agent
 * name, the top-level fields and the `response.usage` fields with their kinds, and captured raw values.
 *
 * @example
 * const s = new RolloutScratch(); readRolloutRow(line, keys, s, { cut: true });
 */
export class RolloutScratch {
  hasTask = false;
  task = 0;
  hasRollout = false;
  rollout = 0;
  /** Whether `agent_ref` was present. */
  agentRefPresent = false;
  /** Whether `agent_ref.name` was present. */
  agentNamePresent = false;
  /** `agent_ref.name` when it is a string (may be empty); null when missing, null or falsy. */
  agentName: string | null = null;
  /** Whether `response` was present (any value). */
  hasResponse = false;
  /** Whether `response` was an object. */
  responseIsObject = false;
  /** Whether `response` was null. */
  responseIsNull = false;
  /** Whether the line contained whitespace outside strings (it is not compact). */
  hasWhitespace = false;
  readonly top = new FieldList();
  readonly usage = new FieldList();
  /** Raw values of captured top-level keys (always `reward` when not numeric), by key id. */
  readonly captured = new Map<number, PyJson>();

  clear(): void {
    this.hasTask = false;
    this.hasRollout = false;
    this.agentRefPresent = false;
    this.agentNamePresent = false;
    this.agentName = null;
    this.hasResponse = false;
    this.responseIsObject = false;
    this.responseIsNull = false;
    this.hasWhitespace = false;
    this.top.clear();
    this.usage.clear();
    if (this.captured.size > 0) this.captured.clear();
  }
}
