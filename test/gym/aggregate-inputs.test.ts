import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GymInputError } from '../../src/gym/gym-input-error.js';
import { row, runAggregate, tempDir, writeJsonl } from './gym-test-helpers.js';

type Json = Record<string, unknown>;

describe('gym aggregate: shards (§12)', () => {
  it('pattern order, sorted matches, a path seen twice read once, whitespace and empty patterns ignored', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'b-1.jsonl', [row(2, 0, { reward: 1 })]);
    writeJsonl(dir, 'b-0.jsonl', [row(1, 0, { reward: 1 })]);
    writeJsonl(dir, 'a.jsonl', [row(0, 0, { reward: 0 })]);
    const { result, lines } = await runAggregate({
      inputGlob: ` ${join(dir, 'b-*.jsonl')} , , ${join(dir, 'a.jsonl')},${join(dir, 'b-0.jsonl')}`,
      output: join(dir, 'merged.jsonl'),
    });
    expect(result.files).toEqual([join(dir, 'b-0.jsonl'), join(dir, 'b-1.jsonl'), join(dir, 'a.jsonl')]);
    expect(lines[0]).toBe('Aggregating 3 shard(s):');
    expect(result.rows).toBe(3);
  });

  it('merged rows are sorted by (task, rollout), one per line with their original bytes; blank lines skipped', async () => {
    const dir = tempDir();
    writeJsonl(dir, 's1.jsonl', [
      row(1, 1, { reward: 1 }),
      '',
      '   ',
      '{ "_ng_task_index": 0, "_ng_rollout_index": 1, "agent_ref": {"name": "agent_a"}, "text": "a  b" }',
    ]);
    writeJsonl(dir, 's2.jsonl', [row(0, 0, { reward: 0 }), row(1, 0, { reward: 1 })]);
    await runAggregate({ inputGlob: join(dir, 's*.jsonl'), output: join(dir, 'merged.jsonl') });
    expect(readFileSync(join(dir, 'merged.jsonl'), 'utf8')).toBe(
      [
        row(0, 0, { reward: 0 }),
        '{ "_ng_task_index": 0, "_ng_rollout_index": 1, "agent_ref": {"name": "agent_a"}, "text": "a  b" }',
        row(1, 0, { reward: 1 }),
        row(1, 1, { reward: 1 }),
      ].join('\n') + '\n',
    );
  });

  it('merged rows: runs of consecutive lines copied together, CRLF and padded lines, a row longer than the buffer', async () => {
    const dir = tempDir();
    const big = row(2, 1, { reward: 1, text: 'x'.repeat(300_000) });
    const lines = [
      row(0, 0, { reward: 0 }),
      row(0, 1, { reward: 1 }),
      `${row(0, 2, { reward: 1 })}\r`,
      row(0, 3, { reward: 0 }),
      `  ${row(1, 0, { reward: 1 })}  `,
      row(1, 1, { reward: 1 }),
      row(2, 0, { reward: 0 }),
      big,
      '{"_ng_task_index": 2, "_ng_rollout_index": 2, "agent_ref": {"name": "agent_a"}, "s": " \\" "}',
      row(2, 3, { reward: 0 }),
    ];
    // shard order: two sorted runs interleaved with single rows out of order
    const shard = [
      lines[3],
      lines[0],
      lines[1],
      lines[2],
      lines[6],
      lines[7],
      lines[9],
      lines[4],
      lines[5],
      lines[8],
    ];
    writeJsonl(dir, 's.jsonl', shard as string[]);
    await runAggregate({ inputGlob: join(dir, 's.jsonl'), output: join(dir, 'merged.jsonl') });
    const expected = lines.map((l) => (l as string).trim());
    expect(readFileSync(join(dir, 'merged.jsonl'), 'utf8')).toBe(expected.join('\n') + '\n');
  });

  it('the output may be one of the inputs; --no-merge leaves it alone', async () => {
    const dir = tempDir();
    const shard = writeJsonl(dir, 'rollouts.jsonl', [row(1, 0, { reward: 1 }), row(0, 0, { reward: 0 })]);
    await runAggregate({ inputGlob: join(dir, 'rollouts*.jsonl'), output: shard });
    expect(readFileSync(shard, 'utf8')).toBe(`${row(0, 0, { reward: 0 })}\n${row(1, 0, { reward: 1 })}\n`);
    const other = tempDir();
    const { lines } = await runAggregate({ inputGlob: shard, output: join(other, 'x.jsonl'), merge: false });
    expect(existsSync(join(other, 'x.jsonl'))).toBe(false);
    expect(existsSync(join(other, 'x_aggregate_metrics.json'))).toBe(true);
    expect(lines.at(-1)).toContain('Merged rollouts: <not merged>');
  });

  it('failure and materialized-input files matched by a glob are skipped with a warning unless asked for', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'rollouts.jsonl', [row(0, 0, { reward: 1 }), row(0, 1, { reward: 1 })]);
    writeJsonl(dir, 'rollouts_failures.jsonl', [row(0, 2, { reward: 0, _ng_failure_class: 'judge_failed' })]);
    writeJsonl(dir, 'rollouts_materialized_inputs.jsonl', [row(0, 0), row(0, 1), row(0, 2)]);
    const glob = join(dir, 'rollouts*.jsonl');
    const { result, warnings } = await runAggregate({
      inputGlob: glob,
      output: join(dir, 'out.jsonl'),
      merge: false,
    });
    expect(result.files).toEqual([join(dir, 'rollouts.jsonl')]);
    expect(warnings.slice(0, 2)).toEqual([
      `skipping '${join(dir, 'rollouts_failures.jsonl')}' matched by '${glob}': it holds failed rollouts, not rollouts (Gym would count them); pass --include-failures to read it`,
      `skipping '${join(dir, 'rollouts_materialized_inputs.jsonl')}' matched by '${glob}': it holds materialized inputs, not rollouts (Gym would count them); pass --include-failures to read it`,
    ]);
    // named explicitly (no glob), a failures file is read
    const named = await runAggregate({
      inputGlob: join(dir, 'rollouts_failures.jsonl'),
      output: join(dir, 'f.jsonl'),
      merge: false,
    });
    expect(named.result.rows).toBe(1);
    // with --include-failures the materialized inputs collide with the rollouts, as in Gym
    await expect(
      runAggregate({ inputGlob: glob, output: join(dir, 'out.jsonl'), merge: false, includeFailures: true }),
    ).rejects.toThrow(
      /^Duplicate \(task, rollout\) rows for agent 'agent_a': 3 key\(s\) appear more than once/,
    );
  });

  it('no match is an error quoting the glob like Gym', async () => {
    await expect(
      runAggregate({ inputGlob: '/nonexistent/x*.jsonl', output: '/tmp/never.jsonl' }),
    ).rejects.toThrow("No shards matched input_glob='/nonexistent/x*.jsonl'");
  });

  it('no rows at all: no metrics file, "Aggregate metrics: None"; rows without agent: []', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'empty.jsonl', ['', '  ']);
    const { lines, result } = await runAggregate({
      inputGlob: join(dir, 'empty.jsonl'),
      output: join(dir, 'o.jsonl'),
    });
    expect(result.metricsPath).toBeNull();
    expect(existsSync(join(dir, 'o_aggregate_metrics.json'))).toBe(false);
    expect(lines.at(-1)).toBe(
      `Finished rollout aggregation! View results at:\nMerged rollouts: ${join(dir, 'o.jsonl')}\nAggregate metrics: None`,
    );
    writeJsonl(dir, 'anon.jsonl', [
      '{"_ng_task_index":0,"_ng_rollout_index":0,"reward":1.0}',
      '{"_ng_task_index":0,"_ng_rollout_index":1,"agent_ref":{"name":""},"reward":1.0}',
      '{"_ng_task_index":0,"_ng_rollout_index":2,"agent_ref":null,"reward":1.0}',
    ]);
    await runAggregate({ inputGlob: join(dir, 'anon.jsonl'), output: join(dir, 'a.jsonl') });
    expect(readFileSync(join(dir, 'a_aggregate_metrics.json'), 'utf8')).toBe('[]');
  });

  it('agents get one entry each, in order of first appearance in the sorted rows', async () => {
    const dir = tempDir();
    writeJsonl(dir, 's.jsonl', [
      row(1, 0, { reward: 1 }, 'zed'),
      row(0, 0, { reward: 0 }, 'bob'),
      row(0, 0, { reward: 1 }, 'zed'),
    ]);
    const { result } = await runAggregate({ inputGlob: join(dir, 's.jsonl'), output: join(dir, 'o.jsonl') });
    expect(result.agents.map((a) => [a.agent_ref.name, a.agent_metrics['mean/reward']])).toEqual([
      ['bob', 0],
      ['zed', 1],
    ]);
  });
});

describe('gym aggregate: bad input, with exact messages', () => {
  async function failure(rows: string[]): Promise<{ error: GymInputError; path: string }> {
    const dir = tempDir();
    const path = writeJsonl(dir, 'bad.jsonl', rows);
    try {
      await runAggregate({ inputGlob: path, output: join(dir, 'o.jsonl') });
    } catch (error) {
      return { error: error as GymInputError, path };
    }
    throw new Error('expected a failure');
  }

  it('a malformed line names the file, line, column and problem', async () => {
    const { error, path } = await failure([row(0, 0, { reward: 1 }), '{"_ng_task_index": 0 x}']);
    expect(error).toBeInstanceOf(GymInputError);
    expect(error.code).toBe('malformed_json');
    expect(error.message).toBe(
      `Malformed JSON in '${path}' at line 2, column 22: expected ',' or '}' after property value`,
    );
    expect([error.file, error.line]).toEqual([path, 2]);
  });

  it('a truncated line and invalid UTF-8', async () => {
    expect(
      (await failure(['{"_ng_task_index": 0, "response": {"usage": {"input_tokens": 1'])).error.message,
    ).toMatch(/at line 1, column 63: expected ',' or '}' after property value$/);
    const dir = tempDir();
    const path = join(dir, 'latin1.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from('{"a": "'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    await expect(runAggregate({ inputGlob: path, output: join(dir, 'o.jsonl') })).rejects.toThrow(
      `Malformed JSON in '${path}' at line 1: invalid UTF-8`,
    );
  });

  it('duplicate (task, rollout) rows of one agent list the first duplicates and their lines', async () => {
    const { error, path } = await failure([
      row(0, 1, { reward: 1 }),
      row(3, 0),
      row(0, 1, { reward: 0 }),
      row(3, 0),
      row(0, 1, {}, 'other'),
    ]);
    expect(error.code).toBe('duplicate_rollout');
    expect(error.message).toBe(
      "Duplicate (task, rollout) rows for agent 'agent_a': 2 key(s) appear more than once " +
        '(Gym fails with HTTP 500: Duplicate materialized input row for rollout key (0, 1)). First duplicates:\n' +
        `  (0, 1): '${path}' line 1, '${path}' line 3\n` +
        `  (3, 0): '${path}' line 2, '${path}' line 4`,
    );
  });

  it('the merged file is still written before a duplicate error, as Gym does', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'd.jsonl', [row(0, 1), row(0, 1)]);
    await expect(runAggregate({ inputGlob: path, output: join(dir, 'm.jsonl') })).rejects.toThrow(
      /^Duplicate/,
    );
    expect(readFileSync(join(dir, 'm.jsonl'), 'utf8').split('\n').length).toBe(3);
  });

  it('missing indices', async () => {
    const { error, path } = await failure([
      row(0, 0),
      '{"_ng_rollout_index": 0, "agent_ref": {"name": "a"}}',
    ]);
    expect(error.code).toBe('missing_index');
    expect(error.message).toBe(
      `Bad rollout in '${path}' at line 2: missing "_ng_task_index" (every rollout needs "_ng_task_index" and "_ng_rollout_index")`,
    );
    expect((await failure(['{"_ng_task_index": 0}'])).error.message).toMatch(
      /line 1: missing "_ng_rollout_index"/,
    );
  });

  it('non-integer indices', async () => {
    expect((await failure(['{"_ng_task_index": "3", "_ng_rollout_index": 0}'])).error.message).toMatch(
      /at line 1: "_ng_task_index" must be an integer, got the string "3"$/,
    );
    expect((await failure(['{"_ng_task_index": 1, "_ng_rollout_index": 0.5}'])).error.message).toMatch(
      /at line 1: "_ng_rollout_index" must be an integer, got the number 0.5$/,
    );
    expect((await failure(['{"_ng_task_index": true, "_ng_rollout_index": 0}'])).error.message).toMatch(
      /at line 1: "_ng_task_index" must be an integer, got true$/,
    );
    expect(
      (await failure(['{"_ng_task_index": 1, "_ng_rollout_index": 12345678901234567}'])).error.message,
    ).toMatch(/"_ng_rollout_index" must be an integer, got the number 12345678901234567, beyond 15 digits$/);
    expect((await failure(['{"_ng_task_index": 2.0, "_ng_rollout_index": 0}'])).error.message).toMatch(
      /at line 1: "_ng_task_index" must be an integer, got the number 2$/,
    );
  });

  it('a line that is not an object; a bad agent_ref, response or usage', async () => {
    expect((await failure(['[1, 2]'])).error.message).toMatch(
      /at line 1: the line is an array, not a JSON object$/,
    );
    expect((await failure([row(0, 0, { agent_ref: 'x' })])).error.message).toMatch(
      /"agent_ref" must be an object, got the string "x"$/,
    );
    expect((await failure([row(0, 0, { agent_ref: { name: 7 } })])).error.message).toMatch(
      /"agent_ref.name" must be a string, got the number 7$/,
    );
    expect((await failure([row(0, 0, { response: 'done' })])).error.message).toMatch(
      /at line 1: "response" must be an object or null, got the string "done"$/,
    );
    expect((await failure([row(0, 0, { response: { usage: [1] } })])).error.message).toMatch(
      /at line 1: "response.usage" must be an object, got an array$/,
    );
  });

  it('a null response is what the collector tolerates: no usage fields, no error', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'n.jsonl', [
      row(0, 0, { reward: 1, response: null }),
      row(0, 1, { reward: 0, response: { usage: null } }),
    ]);
    const { result } = await runAggregate({ inputGlob: path, output: join(dir, 'o.jsonl') });
    expect(Object.keys(result.agents[0]?.agent_metrics ?? {}).filter((k) => k.startsWith('mean/'))).toEqual([
      'mean/reward',
    ]);
  });
});

describe('gym aggregate: hooks (§9, §15)', () => {
  const rows = [
    row(0, 0, {
      reward: 1,
      response: { output: [], usage: { total_tokens: 5 } },
      responses_create_params: { input: 'x' },
      answer: 'A',
    }),
    row(0, 1, { reward: 0, answer: 'B' }),
    row(1, 0, { reward: 1, answer: 'C' }),
    row(1, 1, { reward: 1, answer: 'C' }),
  ];

  it('computeMetrics gets cut-down rows per task; its keys overwrite in place; per_task_metrics reach the groups', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'h.jsonl', rows);
    const seen: unknown[] = [];
    const { result, text } = await (async () => {
      const r = await runAggregate({
        inputGlob: path,
        output: join(dir, 'o.jsonl'),
        hooks: {
          computeMetrics: (tasks) => {
            seen.push(tasks);
            return {
              'mean/reward': 0.1,
              custom: 1.5,
              per_task_metrics: [{ _ng_task_index: 1, judge: 'ok', n: 2 }],
            };
          },
        },
      });
      return { ...r, text: readFileSync(join(dir, 'o_aggregate_metrics.json'), 'utf8') };
    })();
    const [tasks] = seen as Json[][][];
    expect(tasks?.length).toBe(2);
    expect(tasks?.[0]?.[0]).toEqual({
      reward: 1,
      answer: 'A',
      _ng_task_index: 0,
      _ng_rollout_index: 0,
      agent_ref: { name: 'agent_a' },
      response: { usage: { total_tokens: 5 } },
    });
    const am = result.agents[0]?.agent_metrics ?? {};
    expect(Object.keys(am)[0]).toBe('mean/reward');
    expect(am['mean/reward']).toBe(0.1);
    expect(Object.keys(am).at(-1)).toBe('custom');
    expect(result.agents[0]?.key_metrics).toEqual({ 'mean/reward': 0.1, 'mean/total_tokens': 5 });
    const groups = JSON.parse(text)[0].group_level_metrics as Json[];
    expect(groups[1]).toMatchObject({ judge: 'ok', n: 2 });
    expect(Object.keys(groups[1] as Json).slice(-2)).toEqual(['judge', 'n']);
    expect('judge' in (groups[0] as Json)).toBe(false);
  });

  it('getKeyMetrics picks the headline numbers', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'h.jsonl', rows);
    const { result } = await runAggregate({
      inputGlob: path,
      output: join(dir, 'o.jsonl'),
      hooks: { getKeyMetrics: (am) => ({ reward: am['mean/reward'], tasks: 2 }) },
    });
    expect(result.agents[0]?.key_metrics).toEqual({ reward: 0.75, tasks: 2n });
  });

  it('the built-in pass@k hook (with an answer key for majority@k)', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'h.jsonl', rows);
    const { result } = await runAggregate({
      inputGlob: path,
      output: join(dir, 'o.jsonl'),
      hooks: { passAtK: { answerKey: 'answer' } },
    });
    const am = result.agents[0]?.agent_metrics ?? {};
    expect(am['pass@1/accuracy']).toBe((100 * (1 - 1 / 2 + 1)) / 2);
    expect(am['pass@2/accuracy']).toBe(100);
    expect(am['majority@2/accuracy']).toBe((100 * (0.5 + 1)) / 2);
    expect(am['per_sample_aggregate']).toEqual({ accuracy: [100, 50], no_answer: [0, 0] });
    expect(am['pass@1[avg-of-2]/accuracy/avg_sample_std_dev']).toBe((Math.SQRT1_2 + 0) / 2);
  });

  it('the pass@k hook rejects a non-numeric reward, naming the row', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'h.jsonl', [row(0, 0, { reward: 1 }), row(0, 1, { reward: 'yes' })]);
    await expect(
      runAggregate({ inputGlob: path, output: join(dir, 'o.jsonl'), hooks: { passAtK: {} } }),
    ).rejects.toThrow(
      `--pass-at-k needs a numeric "reward" in every rollout of agent 'agent_a'; the rollout in '${path}' at line 2 has "reward" "yes" (Gym's compute_pass_majority_metrics would raise TypeError)`,
    );
  });
});
