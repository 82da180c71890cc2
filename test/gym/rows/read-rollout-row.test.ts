import { describe, expect, it } from 'vitest';
import { RolloutTable } from '../../../src/gym/rows/rollout-table.js';
import { readRolloutRow } from '../../../src/gym/rows/read-rollout-row.js';
import { VALUE_KIND } from '../../../src/gym/rows/value-kind.js';
import { buildRolloutInfo } from '../../../src/gym/compute/build-rollout-info.js';

function scan(line: string, cut = true) {
  const table = new RolloutTable();
  const keys = table.keys;
  const row = readRolloutRow(line, { cut });
  const r = table.addRow(row, 0, 1, 0, Buffer.byteLength(line), 0);
  const stats: [string, number][] = [];
  for (
    let k = table.statStart[r] as number;
    k < (table.statStart[r] as number) + (table.statLen[r] as number);
    k++
  ) {
    stats.push([keys.names[table.statKey[k] as number] as string, table.statVal[k] as number]);
  }
  return { row, stats, info: buildRolloutInfo(table, r) };
}

describe('readRolloutRow + RolloutTable (§2 field map)', () => {
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
    const { info, row } = scan(
      '{"_ng_task_index":3,"_ng_rollout_index":1,"id":12345678901234567890,"reward":"n/a"}',
    );
    expect([row.task, row.rollout]).toEqual([3, 1]);
    expect(info).toEqual({
      rollout_id: '3:1',
      _ng_task_index: 3n,
      _ng_rollout_index: 1n,
      reward: 'n/a',
      id: 12345678901234567890n,
    });
  });
});

describe('readRolloutRow: response and usage', () => {
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
    expect(usageOf('{"a":{"usage":{"x":1}},"usages":{"y":2}}')).toEqual([]);
  });

  it('a repeated "usage": the last one is the one a Python dict keeps', () => {
    expect(usageOf('{"usage":{"a":1},"x":0,"usage":{"b":2}}')).toEqual([['b', 2]]);
    expect(usageOf('{"usage":5,"usage":{"b":2}}')).toEqual([['b', 2]]);
    expect(errorOf('{"usage":{"b":2},"usage":5}')).toBe(
      '"response.usage" must be an object, got the number 5',
    );
    expect(usageOf('{"usage":{"a":1},"us\\u0061ge":{"b":2}}')).toEqual([['b', 2]]);
  });

  it('malformed JSON anywhere in the line is reported before what the row means', () => {
    expect(errorOf('{"usage":"x","a":tru}')).toMatch(/not valid JSON/);
    expect(errorOf('{"usage":{"t":4},"a":[1,]}')).toMatch(/not valid JSON/);
    expect(errorOf('{"usage":"x"}')).toBe('"response.usage" must be an object, got the string "x"');
  });
});

describe('readRolloutRow: what JSON.parse alone would lose', () => {
  it('keeps int and float literals apart, booleans as ints', () => {
    const { row } = scan('{"_ng_task_index":0,"_ng_rollout_index":0,"a":1,"b":1.0,"c":1e2,"d":-0,"e":true}');
    const kinds = [...row.top.values()].map((f) => f.kind);
    expect(kinds).toEqual([
      VALUE_KIND.int,
      VALUE_KIND.float,
      VALUE_KIND.float,
      VALUE_KIND.int,
      VALUE_KIND.int,
    ]);
  });

  it('keeps keys that look like array indices in written order', () => {
    const { stats } = scan('{"_ng_task_index":0,"_ng_rollout_index":0,"b":1,"2":2,"a":3,"1":4}');
    expect(stats.map(([k]) => k)).toEqual(['b', '2', 'a', '1']);
  });

  it('reads a "__proto__" key as an ordinary field', () => {
    const { stats } = scan('{"_ng_task_index":0,"_ng_rollout_index":0,"a":1,"__proto__":2.5,"b":3}');
    expect(stats).toEqual([
      ['a', 1],
      ['__proto__', 2.5],
      ['b', 3],
    ]);
  });

  it('orders rollout_infos as a dict: reward first, usage items, top-level items winning in place', () => {
    const { info } = scan(
      '{"x":1,"_ng_task_index":3,"_ng_rollout_index":2,"t":7,"reward":"no","response":{"usage":{"t":4,"reward":0.5,"u":1,"s":"n"}},"u":2.0}',
    );
    expect(Object.entries(info as object)).toEqual([
      ['rollout_id', '3:2'],
      ['_ng_task_index', 3n],
      ['_ng_rollout_index', 2n],
      ['reward', 0.5],
      ['t', 7n],
      ['u', 2.0],
      ['x', 1n],
    ]);
  });

  it('is not confused by quotes, brackets and keys inside strings', () => {
    const { stats } = scan(
      '{"s":"a \\\\\\" } ] \\"reward\\": 1.0","_ng_task_index":0,"_ng_rollout_index":0,"r":{"reward":[1,{"x":"}"}]},"reward":2}',
    );
    expect(stats).toEqual([['reward', 2]]);
  });

  it('reads rows with whitespace between tokens like compact ones', () => {
    const spaced = scan(
      ' { "_ng_task_index" : 0 , "_ng_rollout_index" : 1 , "a" : 1.0 , "response" : { "usage" : { "t" : 4 } } }'.trim(),
    );
    const compact = scan('{"_ng_task_index":0,"_ng_rollout_index":1,"a":1.0,"response":{"usage":{"t":4}}}');
    expect(spaced.stats).toEqual(compact.stats);
    expect(spaced.info).toEqual(compact.info);
    const kinds = (r: typeof spaced) => [...r.row.top].map(([k, f]) => [k, f.kind, f.value, f.big]);
    expect(kinds(spaced)).toEqual(kinds(compact));
  });
});
