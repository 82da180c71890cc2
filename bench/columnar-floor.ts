/**
 * A lower bound for (c) of `bench/ingest`: the fastest shape of the `score` pipeline we could write
 * for the bench's traces, to tell how far any redesign could go. It is not evalstream's pipeline and
 * is not general: it reads the file with the real read layer, scans each frame's spans straight into
 * typed columns (no span objects; only the attributes the default metrics read, matched by key
 * bytes while the span is scanned), groups spans by trace id with the same 256-request window, takes
 * each trial's numbers from the columns (parents by span-id bytes, usage counted once down the tree,
 * tool spans in start order, repeated calls by canonical arguments) and builds the SDK-shaped trial
 * record and the three score records as plain objects. Left out, so the real pipeline does strictly
 * more: resource and scope attributes, duplicate spans and parent cycles, several traces per trial,
 * disagreeing keys, log records, JSON input, span objects for other metrics, final text, RxJS, the
 * metric protocol (output specs, promises, result validation, time limits) and error reporting.
 * `columnarFloor` returns the totals of the default metrics' outputs; the bench checks them against
 * the real pipeline's, so the floor is known to do the same scoring work on this input.
 */
import { readOtlpPayloadBatches } from '../src/evidence/otlp/read-otlp-payload-batches.js';

type Buf = Buffer & {
  latin1Slice(start: number, end: number): string;
  hexSlice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
};

/** Sums of the default metrics' outputs over every trial. */
export interface FloorTotals {
  trials: number;
  steps: number;
  toolCalls: number;
  toolErrors: number;
  inputTokens: number;
  outputTokens: number;
  maxRepeatedToolCalls: number;
}

/** All-zero totals (to sum another source's outputs into, for comparison). */
export function emptyFloorTotals(): FloorTotals {
  return {
    trials: 0,
    steps: 0,
    toolCalls: 0,
    toolErrors: 0,
    inputTokens: 0,
    outputTokens: 0,
    maxRepeatedToolCalls: 0,
  };
}

const key = (s: string): Buffer => Buffer.from(s, 'utf8');
const K_OP = key('gen_ai.operation.name');
const K_CONV = key('gen_ai.conversation.id');
const K_TASK = key('nemo.test_case.name');
const K_IN = key('gen_ai.usage.input_tokens');
const K_OUT = key('gen_ai.usage.output_tokens');
const K_TOOL = key('gen_ai.tool.name');
const K_ARGS = key('gen_ai.tool.call.arguments');
const K_ERR = key('error.type');
const OP_TOOL = key('execute_tool');

/** Columns per span (ints): positions in the frame, -1 when absent. */
const W = 19;
const TID = 0;
const SID = 1;
const PID = 2;
const PID_LEN = 3;
const T0 = 4;
const T1 = 5;
const STATUS = 6;
const IS_TOOL = 7;
const IN = 8;
const OUT = 9;
const TOOL = 10;
const TOOL_LEN = 11;
const ARGS = 12;
const ARGS_LEN = 13;
const ERR = 14;
const CONV = 15;
const CONV_LEN = 16;
const TASK = 17;
const TASK_LEN = 18;

interface Frame {
  buf: Buf;
  cols: Int32Array;
  spans: number;
}

interface Trace {
  id: string;
  frames: Frame[];
  rows: number[];
  lastSeq: number;
  conv: string | null;
  task: string | null;
}

/** The scan position (module state: the scan is synchronous and one frame at a time). */
let pos = 0;

function varint(buf: Buf): number {
  let b = buf[pos++] as number;
  if (b < 0x80) return b;
  let v = b & 0x7f;
  b = buf[pos++] as number;
  v |= (b & 0x7f) << 7;
  if (b < 0x80) return v;
  b = buf[pos++] as number;
  v |= (b & 0x7f) << 14;
  if (b < 0x80) return v;
  b = buf[pos++] as number;
  v |= (b & 0x7f) << 21;
  if (b < 0x80) return v;
  let scale = 2 ** 28;
  for (;;) {
    b = buf[pos++] as number;
    v += (b & 0x7f) * scale;
    if (b < 0x80) return v;
    scale *= 128;
  }
}

function skip(buf: Buf, wireType: number): void {
  if (wireType === 0) varint(buf);
  else if (wireType === 1) pos += 8;
  else if (wireType === 2) {
    const len = varint(buf); // read before `pos +=` reads pos
    pos += len;
  } else if (wireType === 5) pos += 4;
  else throw new Error(`wire type ${wireType}`);
}

class Scanner {
  cols = new Int32Array(W * 64);

  frame(buf: Buf): Frame {
    let n = 0;
    pos = 0;
    while (pos < buf.length) {
      if (varint(buf) !== 10) throw new Error('not a trace request');
      const rsEnd = varint(buf) + pos;
      while (pos < rsEnd) {
        const tag = varint(buf);
        if (tag !== 18) {
          skip(buf, tag & 7);
          continue;
        }
        const ssEnd = varint(buf) + pos;
        while (pos < ssEnd) {
          const t = varint(buf);
          if (t !== 18) {
            skip(buf, t & 7);
            continue;
          }
          const spanEnd = varint(buf) + pos;
          if ((n + 1) * W > this.cols.length) {
            const grown = new Int32Array(this.cols.length * 2);
            grown.set(this.cols);
            this.cols = grown;
          }
          this.span(buf, spanEnd, n * W);
          n += 1;
        }
      }
    }
    return { buf, cols: this.cols.slice(0, n * W), spans: n };
  }

  span(buf: Buf, end: number, o: number): void {
    const c = this.cols;
    c.fill(-1, o, o + W);
    c[o + STATUS] = 0;
    c[o + IS_TOOL] = 0;
    c[o + PID_LEN] = 0;
    while (pos < end) {
      const tag = varint(buf);
      if (tag === 57 || tag === 65) {
        c[o + (tag === 57 ? T0 : T1)] = pos;
        pos += 8;
      } else if (tag === 10 || tag === 18 || tag === 34) {
        const len = varint(buf);
        c[o + (tag === 10 ? TID : tag === 18 ? SID : PID)] = pos;
        if (tag === 34) c[o + PID_LEN] = len;
        pos += len;
      } else if (tag === 74) this.attribute(buf, varint(buf) + pos, o);
      else if (tag === 122) {
        const statusEnd = varint(buf) + pos;
        while (pos < statusEnd) {
          const st = varint(buf);
          if (st === 24) c[o + STATUS] = varint(buf);
          else skip(buf, st & 7);
        }
      } else skip(buf, tag & 7);
    }
  }

  /** One KeyValue: the SDK's layout (key, then an AnyValue holding one string or int). */
  attribute(buf: Buf, end: number, o: number): void {
    const c = this.cols;
    if (buf[pos] !== 10) {
      pos = end;
      return;
    }
    pos += 1;
    const kl = varint(buf);
    const ks = pos;
    pos += kl;
    if (buf[pos] !== 18) {
      pos = end;
      return;
    }
    pos += 1;
    const vs = varint(buf) === 0 ? -1 : pos;
    let str = -1;
    let strLen = 0;
    let int = -1;
    if (vs >= 0 && buf[vs] === 10) {
      pos = vs + 1;
      strLen = varint(buf);
      str = pos;
    } else if (vs >= 0 && buf[vs] === 24) {
      pos = vs + 1;
      int = varint(buf);
    }
    if (same(buf, ks, kl, K_OP)) c[o + IS_TOOL] = str >= 0 && same(buf, str, strLen, OP_TOOL) ? 1 : 0;
    else if (same(buf, ks, kl, K_CONV)) {
      c[o + CONV] = str;
      c[o + CONV_LEN] = strLen;
    } else if (same(buf, ks, kl, K_TASK)) {
      c[o + TASK] = str;
      c[o + TASK_LEN] = strLen;
    } else if (same(buf, ks, kl, K_IN)) c[o + IN] = int;
    else if (same(buf, ks, kl, K_OUT)) c[o + OUT] = int;
    else if (same(buf, ks, kl, K_TOOL)) {
      c[o + TOOL] = str;
      c[o + TOOL_LEN] = strLen;
    } else if (same(buf, ks, kl, K_ARGS)) {
      c[o + ARGS] = str;
      c[o + ARGS_LEN] = strLen;
    } else if (same(buf, ks, kl, K_ERR)) c[o + ERR] = 1;
    pos = end;
  }
}

function same(buf: Buf, start: number, length: number, k: Buffer): boolean {
  if (length !== k.length) return false;
  for (let j = length - 1; j >= 0; j -= 1) if (buf[start + j] !== k[j]) return false;
  return true;
}

/** Whether the fixed64 at `a` (in `ba`) is below the one at `b` (in `bb`). */
function earlier(ba: Buf, a: number, bb: Buf, b: number): boolean {
  const ha = ba.readUInt32LE(a + 4);
  const hb = bb.readUInt32LE(b + 4);
  return ha !== hb ? ha < hb : ba.readUInt32LE(a) < bb.readUInt32LE(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Scores one trial from its columns: the trial record and three score records (plain objects). */
function scoreTrace(t: Trace, file: string, totals: FloorTotals): unknown[] {
  const n = t.rows.length;
  const at = (i: number): number => (t.rows[i] as number) * W;
  const fr = (i: number): Frame => t.frames[i] as Frame;
  const parent = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i += 1) {
    const fi = fr(i);
    if (fi.cols[at(i) + PID_LEN] === 0) continue;
    const p = fi.cols[at(i) + PID] as number;
    search: for (let j = 0; j < n; j += 1) {
      const fj = fr(j);
      const s = fj.cols[at(j) + SID] as number;
      for (let k = 0; k < 8; k += 1) if (fi.buf[p + k] !== fj.buf[s + k]) continue search;
      parent[i] = j;
      break;
    }
  }
  const usageBelow = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) {
    const c = fr(i).cols;
    if ((c[at(i) + IN] as number) < 0 && (c[at(i) + OUT] as number) < 0) continue;
    for (let p = parent[i] as number; p >= 0 && usageBelow[p] === 0; p = parent[p] as number)
      usageBelow[p] = 1;
  }
  let input = 0;
  let output = 0;
  let first = -1;
  let last = -1;
  const tools: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const f = fr(i);
    const o = at(i);
    if (usageBelow[i] === 0) {
      input += Math.max(0, f.cols[o + IN] as number);
      output += Math.max(0, f.cols[o + OUT] as number);
    }
    if (f.cols[o + IS_TOOL] === 1) tools.push(i);
    if (
      first < 0 ||
      earlier(f.buf, f.cols[o + T0] as number, fr(first).buf, fr(first).cols[at(first) + T0] as number)
    )
      first = i;
    if (
      last < 0 ||
      earlier(fr(last).buf, fr(last).cols[at(last) + T1] as number, f.buf, f.cols[o + T1] as number)
    )
      last = i;
  }
  const startOf = (i: number): number => fr(i).cols[at(i) + T0] as number;
  for (let i = 1; i < tools.length; i += 1) {
    const x = tools[i] as number;
    let j = i - 1;
    while (
      j >= 0 &&
      earlier(fr(x).buf, startOf(x), fr(tools[j] as number).buf, startOf(tools[j] as number))
    ) {
      tools[j + 1] = tools[j] as number;
      j -= 1;
    }
    tools[j + 1] = x;
  }
  let errors = 0;
  const byName = new Map<string, number[]>();
  for (const i of tools) {
    const f = fr(i);
    const o = at(i);
    const s = f.cols[o + TOOL] as number;
    const name = f.buf.utf8Slice(s, s + (f.cols[o + TOOL_LEN] as number));
    const list = byName.get(name);
    if (list === undefined) byName.set(name, [i]);
    else list.push(i);
    if (f.cols[o + STATUS] === 2 || f.cols[o + ERR] === 1) errors += 1;
  }
  let maxRepeated = tools.length === 0 ? 0 : 1;
  for (const list of byName.values()) {
    if (list.length < 2) continue;
    const counts = new Map<string, number>();
    for (const i of list) {
      const f = fr(i);
      const s = f.cols[at(i) + ARGS] as number;
      const k = canonical(JSON.parse(f.buf.utf8Slice(s, s + (f.cols[at(i) + ARGS_LEN] as number))));
      const c = (counts.get(k) ?? 0) + 1;
      counts.set(k, c);
      maxRepeated = Math.max(maxRepeated, c);
    }
  }
  const runtime =
    Number(
      fr(last).buf.readBigUInt64LE(fr(last).cols[at(last) + T1] as number) -
        fr(first).buf.readBigUInt64LE(fr(first).cols[at(first) + T0] as number),
    ) / 1e9;
  const tid = fr(0).cols[at(0) + TID] as number;
  const traceId = fr(0).buf.hexSlice(tid, tid + 16);
  totals.trials += 1;
  totals.steps += n;
  totals.toolCalls += tools.length;
  totals.toolErrors += errors;
  totals.inputTokens += input;
  totals.outputTokens += output;
  totals.maxRepeatedToolCalls += maxRepeated;
  const trialId = t.conv ?? traceId;
  const taskId = t.task ?? trialId;
  const metadata = {
    source_format: 'otlp',
    source_file: file,
    otlp_trace_ids: [traceId],
    otlp_span_count: n,
  };
  const trial = {
    id: trialId,
    task_id: taskId,
    status: 'completed',
    output: { output_text: null, response: null, metadata: {} },
    evidence: {
      descriptors: {
        trace: {
          kind: 'trace',
          format: 'otlp',
          ref: file,
          data: null,
          metadata: { otlp_trace_ids: [traceId] },
        },
      },
      metadata: {},
    },
    error: null,
    measurements: {
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
      cache_creation_tokens: null,
      cache_read_tokens: null,
      runtime_sec: runtime,
      cost_usd: null,
    },
    metadata,
  };
  const record = (type: string, outputs: { name: string; value: number | boolean }[]): unknown => ({
    id: `floor:${taskId}:${trialId}:${type}`,
    run_id: 'floor',
    task_id: taskId,
    trial_id: trialId,
    metric_type: type,
    metadata: { row_index: 0, trial_metadata: metadata },
    status: 'completed',
    outputs,
    diagnostics: [],
  });
  return [
    trial,
    record('trajectory_stats', [
      { name: 'steps', value: n },
      { name: 'tool_calls', value: tools.length },
      { name: 'tool_errors', value: errors },
      { name: 'turns', value: 1 },
    ]),
    record('token_usage', [
      { name: 'input_tokens', value: input },
      { name: 'output_tokens', value: output },
      { name: 'total_tokens', value: input + output },
    ]),
    record('tool_call_efficiency', [
      { name: 'efficient_tool_use', value: maxRepeated <= 2 },
      { name: 'max_repeated_tool_calls', value: maxRepeated },
    ]),
  ];
}

/**
 * Scores the bench's OTLP dump the fastest way we know (see the module doc); returns the totals.
 *
 * @example
 * const totals = await columnarFloor('bench/out/ingest-100mb-pool1500-v1.binpb');
 */
export async function columnarFloor(file: string): Promise<FloorTotals> {
  const totals = emptyFloorTotals();
  const scanner = new Scanner();
  const open = new Map<string, Trace>();
  let seq = 0;
  let records = 0;
  const close = (t: Trace): void => {
    open.delete(t.id);
    records += scoreTrace(t, file, totals).length;
  };
  for await (const batch of readOtlpPayloadBatches(file, { layout: 'protobuf' })) {
    for (const { payload } of batch) {
      if (payload.kind !== 'protobuf') continue;
      seq += 1;
      const f = scanner.frame(payload.bytes as Buf);
      let current: Trace | null = null;
      let currentTid = -1;
      for (let r = 0; r < f.spans; r += 1) {
        const o = r * W;
        const tid = f.cols[o + TID] as number;
        let sameTrace = current !== null;
        for (let k = 0; sameTrace && k < 16; k += 1) sameTrace = f.buf[tid + k] === f.buf[currentTid + k];
        if (!sameTrace) {
          const id = f.buf.latin1Slice(tid, tid + 16);
          let t = open.get(id);
          if (t === undefined) {
            t = { id, frames: [], rows: [], lastSeq: seq, conv: null, task: null };
            open.set(id, t);
          } else if (t.lastSeq !== seq) {
            open.delete(id);
            open.set(id, t);
            t.lastSeq = seq;
          }
          current = t;
          currentTid = tid;
        }
        const t = current as Trace;
        t.frames.push(f);
        t.rows.push(r);
        const conv = f.cols[o + CONV] as number;
        if (t.conv === null && conv >= 0)
          t.conv = f.buf.utf8Slice(conv, conv + (f.cols[o + CONV_LEN] as number));
        const task = f.cols[o + TASK] as number;
        if (t.task === null && task >= 0)
          t.task = f.buf.utf8Slice(task, task + (f.cols[o + TASK_LEN] as number));
      }
      for (const t of open.values()) {
        if (seq - t.lastSeq < 256) break;
        close(t);
      }
    }
  }
  for (const t of [...open.values()]) close(t);
  if (records !== totals.trials * 4) throw new Error('record count');
  return totals;
}
