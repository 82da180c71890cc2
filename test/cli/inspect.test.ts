import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InspectRecord } from '../../src/cli/commands/inspect.js';
import type { JsonValue } from '../../src/model/json-value.js';
import { runCli } from './run-cli.js';

const CORPUS = fileURLToPath(new URL('../fixtures/otlp/agentevals-otlp/', import.meta.url));

/** Runs the CLI, returning its exit code, stdout and stderr. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await runCli(args);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

afterEach(() => vi.restoreAllMocks());

interface TruthCall {
  name: string;
  args: JsonValue;
  result: JsonValue;
  is_error: boolean;
}
interface TruthTurn {
  final_text: string | null;
  tool_calls?: TruthCall[];
  tokens: { input: number; output: number };
}
interface Truth {
  content_captured?: boolean;
  extra_turns_allowed?: boolean;
  turns: TruthTurn[];
  tokens: { input: number; output: number };
  session_key?: { kind: string; value: string };
}

function fixtures(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...fixtures(p));
    else if (name.endsWith('.json') && !name.endsWith('.truth.json')) out.push(p);
  }
  return out;
}

/** The truth files compare results after removing ADK's `{"result": X}` wrapper (MANIFEST.md). */
function unwrap(v: JsonValue): JsonValue {
  if (
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.keys(v).length === 1 &&
    'result' in v
  ) {
    return v['result'] ?? null;
  }
  return v;
}

/** One inspected trial against the truth turn(s) it covers. */
function compare(r: InspectRecord, turns: TruthTurn[], truth: Truth): void {
  const calls = turns.flatMap((t) => t.tool_calls ?? []);
  expect(r.tool_calls.map((c) => [c.name, c.is_error])).toEqual(calls.map((c) => [c.name, c.is_error]));
  calls.forEach((want, i) => {
    const got = r.tool_calls[i];
    if (truth.content_captured === false) {
      expect([got?.arguments, got?.result]).toEqual([null, null]);
      return;
    }
    if (want.args !== null) expect(got?.arguments).toEqual(want.args);
    if (want.result !== null) expect(unwrap(got?.result ?? null)).toEqual(want.result);
  });
  const sum = (k: 'input' | 'output'): number => turns.reduce((n, t) => n + t.tokens[k], 0);
  // the truth counts a fixture without any model call as 0 tokens; inspect says null (not reported)
  expect([r.tokens.input ?? 0, r.tokens.output ?? 0]).toEqual([sum('input'), sum('output')]);
  expect(r.final_text).toBe(turns[turns.length - 1]?.final_text ?? null);
}

describe('evalstream inspect on the whole agentevals OTLP corpus', () => {
  const files = fixtures(CORPUS);

  it('has the 45 fixtures of the corpus', () => {
    expect(files).toHaveLength(45);
  });

  it.each(files.map((f) => [relative(CORPUS, f), f]))(
    '%s agrees with its truth file',
    async (_name, file) => {
      const truth = JSON.parse(readFileSync(file.replace(/\.json$/, '.truth.json'), 'utf8')) as Truth;
      const { code, out } = await run(['inspect', '--json', file]);
      expect(code).toBe(0);
      let records = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as InspectRecord);
      if (truth.extra_turns_allowed === true) {
        // extra extracted turns are tolerated: drop trials that carry nothing the truth could list
        records = records.filter(
          (r) => r.tool_calls.length > 0 || r.final_text !== null || r.tokens.input !== null,
        );
      }
      if (truth.session_key !== undefined) {
        expect(records.map((r) => r.trial_id)).toEqual([truth.session_key.value]);
      }
      // a conversation is one trial (its turns summed); traces without a conversation id are one trial each
      if (records.length === 1) compare(records[0] as InspectRecord, truth.turns, truth);
      else {
        expect(records).toHaveLength(truth.turns.length);
        records.forEach((r, i) => compare(r, [truth.turns[i] as TruthTurn], truth));
      }
      const total = records.reduce((n, r) => n + (r.tokens.input ?? 0), 0);
      expect(total).toBe(truth.tokens.input);
    },
  );
});

describe('evalstream inspect', () => {
  const file = join(CORPUS, 'adk_py/v2_default/S6b.json');

  it('--json prints exactly the documented keys', async () => {
    const { out } = await run(['inspect', '--json', file]);
    const r = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(r)).toEqual(['task_id', 'trial_id', 'spans', 'tool_calls', 'tokens', 'final_text']);
    expect(Object.keys((r['tool_calls'] as object[])[0] as object)).toEqual([
      'name',
      'arguments',
      'result',
      'is_error',
    ]);
    expect(Object.keys(r['tokens'] as object)).toEqual(['input', 'output']);
  });

  it('prints a readable summary per trial without --json', async () => {
    const { code, out } = await run(['inspect', file]);
    expect(code).toBe(0);
    expect(out).toContain('trial sess-S6b-v2_default  task sess-S6b-v2_default');
    expect(out).toContain('tokens in 58 out 18');
    expect(out).toMatch(/1\. get_stock_price {2}\[error\]/);
    expect(out).toContain('final text: "Sorry, I could not find a stock with ticker XYZ."');
  });

  it('a truncated input: the trials before it are printed, then exit 1 (incomplete) naming file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evalstream-inspect-'));
    const bad = join(dir, 'dump.jsonl');
    const line = (f: string): string => JSON.stringify(JSON.parse(readFileSync(join(CORPUS, f), 'utf8')));
    const second = line('hand/self_parent.json');
    writeFileSync(bad, `${line('hand/adk_go_main.json')}\n${second.slice(0, second.length / 2)}`);
    const { code, out, err } = await run(['inspect', '--json', bad]);
    expect(code).toBe(1);
    expect(
      out
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as InspectRecord).trial_id),
    ).toEqual(['sess-go-1']);
    expect(err).toMatch(/incomplete: .*dump\.jsonl: line 2: invalid JSON/);
  });

  it('refuses an unknown --format', async () => {
    const { code, err } = await run(['inspect', '--format', 'yaml', file]);
    expect(code).toBe(2);
    expect(err).toContain('unknown --format "yaml"');
  });
});
