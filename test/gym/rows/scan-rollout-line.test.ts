import { describe, expect, it } from 'vitest';
import { JsonCursor } from '../../../src/gym/json/json-cursor.js';
import { createGymKeys } from '../../../src/gym/rows/gym-keys.js';
import { RolloutScratch } from '../../../src/gym/rows/rollout-scratch.js';
import { RolloutTable } from '../../../src/gym/rows/rollout-table.js';
import { scanRolloutLine } from '../../../src/gym/rows/scan-rollout-line.js';
import { buildRolloutInfo } from '../../../src/gym/compute/build-rollout-info.js';

function scan(line: string, cut = true) {
  const keys = createGymKeys();
  const table = new RolloutTable(keys);
  const scratch = new RolloutScratch();
  const buf = Buffer.from(line);
  scanRolloutLine(new JsonCursor(buf, 0, buf.length), keys, scratch, { cut });
  const r = table.addRow(scratch, 0, 1, 0, buf.length, 0);
  const stats: [string, number][] = [];
  for (
    let k = table.statStart[r] as number;
    k < (table.statStart[r] as number) + (table.statLen[r] as number);
    k++
  ) {
    stats.push([keys.names[table.statKey[k] as number] as string, table.statVal[k] as number]);
  }
  return { scratch, stats, info: buildRolloutInfo(table, r) };
}

describe('scanRolloutLine + RolloutTable (§2 field map)', () => {
  it('duplicate keys: last value at the first position, at top level and in usage', () => {
    const { stats } = scan(
      '{"_ng_task_index":0,"_ng_rollout_index":0,"a":1,"b":2,"a":3,"response":{"usage":{"u":1,"u":5}}}',
    );
    expect(stats).toEqual([
      ['a', 3],
      ['b', 2],
      ['u', 5],
    ]);
  });

  it('an escaped "usage" key is still usage; booleans are 0/1; strings/lists/objects are dropped', () => {
    const { stats } = scan(
      '{"_ng_task_index":0,"_ng_rollout_index":0,"ok":true,"no":false,"s":"x","l":[1],"o":{"v":1},"response":{"\\u0075sage":{"t":4}}}',
    );
    expect(stats).toEqual([
      ['ok', 1],
      ['no', 0],
      ['t', 4],
    ]);
  });

  it('heavy keys are cut (aggregate) but kept when the row is used as written (profile)', () => {
    const line = '{"_ng_task_index":0,"_ng_rollout_index":0,"ng_trajectory":5,"response":{}}';
    expect(scan(line).stats).toEqual([]);
    expect(scan(line, false).stats).toEqual([['ng_trajectory', 5]]);
  });

  it('keeps exact big ints in rollout_infos and indices as ints', () => {
    const { info, scratch } = scan(
      '{"_ng_task_index":3,"_ng_rollout_index":1,"id":12345678901234567890,"reward":"n/a"}',
    );
    expect([scratch.task, scratch.rollout]).toEqual([3, 1]);
    expect(info).toEqual({
      rollout_id: '3:1',
      _ng_task_index: 3n,
      _ng_rollout_index: 1n,
      reward: 'n/a',
      id: 12345678901234567890n,
    });
  });
});

describe('scanRolloutLine: the one-pass "response" read gives what the member-by-member read gives', () => {
  const head = '{"_ng_task_index":0,"_ng_rollout_index":0,"response":';
  const usageOf = (response: string) => scan(`${head}${response}}`).stats;
  const errorOf = (response: string): string => {
    try {
      scan(`${head}${response}}`);
    } catch (error) {
      return (error as Error).message;
    }
    return 'no error';
  };

  it('reads the one "usage" wherever it is, with nested values and whitespace around it', () => {
    expect(
      usageOf('{"id":"r","output":[{"usage":{"x":9}}],"usage":{"t":4},"z":{"a":[1,{"b":null}]}}'),
    ).toEqual([['t', 4]]);
    expect(usageOf('{ "usage" : { "t" : 4 } , "a" : [ ] }')).toEqual([['t', 4]]);
    expect(scan(`${head}{ "usage" : {"t":4} }}`).scratch.hasWhitespace).toBe(true);
    expect(usageOf('{"a":{"usage":{"x":1}},"usages":{"y":2}}')).toEqual([]);
  });

  it('a repeated "usage": the last wins, but a bad first one is still an error', () => {
    expect(usageOf('{"usage":{"a":1},"x":0,"usage":{"b":2}}')).toEqual([['b', 2]]);
    expect(errorOf('{"usage":5,"usage":{"b":2}}')).toBe(
      '"response.usage" must be an object, got the number 5',
    );
    expect(usageOf('{"usage":{"a":1},"us\\u0061ge":{"b":2}}')).toEqual([['b', 2]]);
  });

  it('a bad "usage" is reported before a syntax error after it, and a syntax error before it first', () => {
    expect(errorOf('{"usage":"x","a":tru}')).toBe('"response.usage" must be an object, got the string "x"');
    expect(errorOf('{"a":tru,"usage":"x"}')).toMatch(/invalid literal, expected true/);
    expect(errorOf('{"usage":{"t":4},"a":[1,]}')).toMatch(/expected a value/);
  });
});
