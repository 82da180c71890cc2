import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { JsonObject, JsonValue } from '../model/json-value.js';
import type { Trial, TrialMeasurements } from '../model/trial.js';
import type { TrialDiagnostic } from '../model/trial-diagnostic.js';
import type { TrialItem } from '../model/trial-item.js';
import { gzipErrorReason } from '../evidence/gzip-error-reason.js';
import { invalidUtf8Diagnostics } from '../evidence/invalid-utf8-diagnostics.js';
import { cutOffLastLine, InputError, skippedIssue } from './input-error.js';
import { isGzipFile } from '../evidence/is-gzip-file.js';
import { measurementsFromUsage } from '../model/measurements-from-usage.js';
import { PullSource } from '../pipeline/pull-source.js';
import { linesWithBytes } from './lines-with-bytes.js';

/** Options of `fromGymRollouts`. */
export interface FromGymRolloutsOptions {
  /** Called after each row, with the file and the bytes read so far. */
  onProgress?: (progress: { file: string; bytesRead: number; trials: number }) => void;
  /**
   * Receives each line that is not JSON or not a rollout row (not an object, an index that is not an
   * integer), as an `InputError` naming the file, line and field: the line is skipped and reading goes
   * on. Without it such a line ends the stream. A cut-off last line and a repeated (task, rollout)
   * key end it either way.
   */
  onIssue?: (issue: InputError) => void;
}

type Row = Record<string, JsonValue>;

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: JsonValue | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * NeMo Gym rollout rows (JSONL, optionally gzip) as trials, streamed line by line. Task id =
 * `_ng_task_index` (0 when absent, as in Gym), trial id `<task>-<rollout>` with `_ng_rollout_index`
 * (prefixed `<agent>:` when the row has `agent_ref.name`); a repeated key errors like Gym does.
 * `reward` (and every other top-level number, boolean or string, plus `agent_ref`) goes to
 * `trial.metadata`, where `verifier_reward` reads it; `response.usage` (Responses or Chat
 * Completions names) becomes the measurements (a token count below zero left out, with a diagnostic
 * naming file, line and field; bytes that are not UTF-8 are read as U+FFFD and flagged with file,
 * line, byte offset and JSON path); output text = the `output_text` parts of the
 * response's message items. No trace evidence. A bad line errors the stream with an `InputError`
 * naming the file and line, after the trials before it.
 *
 * @example
 * fromGymRollouts(['results/rollouts.jsonl']).subscribe((i) => console.log(i.trial.task_id, i.trial.metadata['reward']));
 */
export function fromGymRollouts(
  paths: readonly string[],
  options: FromGymRolloutsOptions = {},
): PullSource<TrialItem> {
  return new PullSource(() => readGymRollouts(paths, options));
}

async function* readGymRollouts(
  paths: readonly string[],
  options: FromGymRolloutsOptions,
): AsyncGenerator<TrialItem> {
  const seen = new Set<string>();
  let trials = 0;
  for (const p of paths) {
    const file = resolve(p);
    let gzip: boolean;
    try {
      gzip = await isGzipFile(file);
    } catch (error) {
      throw new InputError(`cannot open: ${(error as Error).message}`, { file });
    }
    const raw = createReadStream(file);
    const stream = gzip ? raw.pipe(createGunzip()) : raw;
    if (gzip) raw.on('error', (e) => stream.destroy(e));
    let lineNo = 0;
    try {
      for await (const { text: line, bytes, line: n, offset, unterminated } of linesWithBytes(stream)) {
        lineNo = n;
        if (line.trim() === '') continue;
        let row: JsonValue;
        try {
          row = JSON.parse(line) as JsonValue;
        } catch (error) {
          const reason = `not valid JSON: ${(error as Error).message}`;
          // a last line that does not parse and has no newline after it: the file was cut off
          if (unterminated === true || options.onIssue === undefined)
            throw new InputError(unterminated === true ? cutOffLastLine(reason) : reason, {
              file,
              line: lineNo,
            });
          options.onIssue(skippedIssue(new InputError(reason, { file, line: lineNo })));
          continue;
        }
        let item: TrialItem;
        try {
          if (!isObject(row))
            throw new InputError('a rollout row must be a JSON object', {
              file,
              line: lineNo,
              diagnostic: 'skipped_payload',
            });
          item = buildGymItem(row, file, lineNo, seen);
        } catch (error) {
          // a row of the wrong shape is that row's problem; a duplicate row key is the run's
          if (options.onIssue === undefined || !(error instanceof InputError) || error.diagnostic === null)
            throw error;
          options.onIssue(skippedIssue(error));
          continue;
        }
        // a U+FFFD in the text is either written as such or stands for bytes that are not UTF-8
        if (line.includes('\uFFFD')) {
          const found = invalidUtf8Diagnostics(file, bytes, { base: offset, firstLine: lineNo });
          if (found.length > 0) item.diagnostics = [...found, ...(item.diagnostics ?? [])];
        }
        trials += 1;
        yield item;
        options.onProgress?.({ file, bytesRead: raw.bytesRead, trials });
      }
    } catch (error) {
      if (error instanceof InputError) throw error;
      const reason = gzip ? gzipErrorReason(error) : (error as Error).message;
      throw new InputError(`cannot read: ${reason}`, { file, line: lineNo + 1 });
    } finally {
      raw.destroy();
    }
  }
}

function index(row: Row, key: string, file: string, line: number): number {
  const v = row[key];
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new InputError(`${key} must be an integer`, {
      file,
      line,
      field: key,
      diagnostic: 'skipped_payload',
    });
  }
  return v;
}

function outputText(response: JsonValue | undefined): string | null {
  if (!isObject(response)) return null;
  if (typeof response['output_text'] === 'string') return response['output_text'];
  const items = response['output'];
  if (!Array.isArray(items)) return null;
  const texts: string[] = [];
  for (const item of items) {
    if (!isObject(item) || item['type'] !== 'message' || !Array.isArray(item['content'])) continue;
    for (const part of item['content']) {
      if (isObject(part) && part['type'] === 'output_text' && typeof part['text'] === 'string')
        texts.push(part['text']);
    }
  }
  return texts.length === 0 ? null : texts.join('');
}

function measurements(
  response: JsonValue | undefined,
  file: string,
  line: number,
  diagnostics: TrialDiagnostic[],
): TrialMeasurements {
  const usage = isObject(response) && isObject(response['usage']) ? response['usage'] : {};
  const details = isObject(usage['input_tokens_details'])
    ? usage['input_tokens_details']
    : isObject(usage['prompt_tokens_details'])
      ? usage['prompt_tokens_details']
      : {};
  // a token count below zero is no count: left out, and said so
  const count = (o: JsonObject, key: string, at: string): number | null => {
    const n = num(o[key]);
    if (n === null || n >= 0) return n;
    diagnostics.push({
      code: 'negative_token_count',
      message: `${key} is ${n}: left out of the token totals`,
      file,
      line,
      offset: null,
      field: `${at}.${key}`,
    });
    return null;
  };
  const u = 'response.usage';
  const input = count(usage, 'input_tokens', u) ?? count(usage, 'prompt_tokens', u);
  const output = count(usage, 'output_tokens', u) ?? count(usage, 'completion_tokens', u);
  const detailsAt = isObject(usage['input_tokens_details'])
    ? `${u}.input_tokens_details`
    : `${u}.prompt_tokens_details`;
  return measurementsFromUsage({
    input,
    output,
    total: count(usage, 'total_tokens', u),
    cached: count(details, 'cached_tokens', detailsAt),
  });
}

function buildGymItem(row: Row, file: string, line: number, seen: Set<string>): TrialItem {
  const task = index(row, '_ng_task_index', file, line);
  const rollout = index(row, '_ng_rollout_index', file, line);
  const agentRef = row['agent_ref'];
  const agent = isObject(agentRef) && typeof agentRef['name'] === 'string' ? agentRef['name'] : null;
  const key = `${agent ?? ''}\u0000${task}\u0000${rollout}`;
  if (seen.has(key)) {
    throw new InputError(`Duplicate materialized input row for rollout key (${task}, ${rollout})`, {
      file,
      line,
    });
  }
  seen.add(key);
  const metadata: JsonObject = {};
  for (const [k, v] of Object.entries(row)) {
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') metadata[k] = v;
  }
  if (row['reward'] === null) metadata['reward'] = null;
  if (isObject(agentRef)) metadata['agent_ref'] = agentRef;
  const response = row['response'];
  const diagnostics: TrialDiagnostic[] = [];
  const trial: Trial = {
    id: `${agent === null ? '' : `${agent}:`}${task}-${rollout}`,
    task_id: String(task),
    status: 'completed',
    output: { output_text: outputText(response), response: response ?? null, metadata: {} },
    evidence: null,
    error: null,
    measurements: measurements(response, file, line, diagnostics),
    metadata,
  };
  const item: TrialItem = { trial, evidence: null, task: null, origin: { file, line } };
  if (diagnostics.length > 0) item.diagnostics = diagnostics;
  return item;
}
