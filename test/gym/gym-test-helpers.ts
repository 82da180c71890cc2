import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregateRollouts, type AggregateRolloutsOptions } from '../../src/gym/aggregate-rollouts.js';

/** A fresh temporary directory. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'gym-test-'));
}

/** Writes rows (objects → compact JSON, strings as given) as a JSONL file and returns its path. */
export function writeJsonl(dir: string, name: string, rows: (object | string)[]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  return path;
}

/** A rollout row; `reward` floats are written with a decimal point like Python does. */
export function row(
  task: number,
  rollout: number,
  fields: Record<string, unknown> = {},
  agent = 'agent_a',
): string {
  const body = JSON.stringify({
    _ng_task_index: task,
    _ng_rollout_index: rollout,
    agent_ref: { name: agent },
    ...fields,
  });
  return body.replace(/"(reward|score)":(-?\d+)(?=[,}])/g, '"$1":$2.0');
}

/** Runs aggregateRollouts capturing its log lines and warnings. */
export async function runAggregate(options: AggregateRolloutsOptions) {
  const lines: string[] = [];
  const warnings: string[] = [];
  const result = await aggregateRollouts({
    ...options,
    log: (l) => lines.push(l),
    warn: (w) => warnings.push(w),
  });
  return { result, lines, warnings };
}
