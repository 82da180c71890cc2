import { resolve } from 'node:path';
import type { JsonValue } from '../../model/json-value.js';
import type { EvidenceDescriptor } from '../../model/trial.js';
import type {
  NormalizedTokenUsage,
  NormalizedToolCall,
  TrajectoryView,
} from '../../model/trajectory-view.js';
import { EvidenceValueError } from '../evidence-value-error.js';
import { anyValueToJson } from './any-value-to-json.js';
import { classifyGenAiSpan, type GenAiSpanRole } from './classify-genai-span.js';
import { otlpJsonToRequest } from './otlp-json-to-request.js';
import type {
  OtlpExportRequest,
  OtlpLogRecord,
  OtlpResource,
  OtlpResourceSpans,
  OtlpScope,
  OtlpScopeSpans,
  OtlpSpan,
} from './otlp-types.js';
import { parseJsonText } from './parse-json-text.js';
import { readOtlpFileSync } from './read-otlp-file-sync.js';
import { readSpanUsage, type SpanUsage } from './read-span-usage.js';
import { SpanContent, type ContentEvent, type MessageToolResult } from './span-content.js';
import { SpanForest, type SpanNode } from './span-forest.js';
import { sortInPlace } from '../../util/sort-in-place.js';
import { appendAll } from '../../util/append-all.js';

/** Token totals of an OTLP trace (each logical model call counted once) and where they came from. */
export interface OtlpTokenUsage {
  input: number | null;
  output: number | null;
  cached: number | null;
  cacheCreation: number | null;
  costUsd: number | null;
  /** Model-call spans that have no model-call span below them (a wrapper and its inner call are one). */
  llmCalls: number;
  /** Spans whose usage was counted (usage-bearing spans with no usage-bearing descendant). */
  countedSpanIds: string[];
  /** `gen_ai`, `gen_ai-deprecated`, `openinference`: the vocabularies the counted numbers used. */
  vocabulary: string[];
  /** Token counts below zero, left out of the totals above (by span and attribute). */
  negative: { spanId: string; key: string; value: number }[];
}

type Source =
  | { kind: 'loaded'; requests: OtlpExportRequest[] | null; spans: OtlpSpan[]; logs: OtlpLogRecord[] }
  | { kind: 'file'; path: string; traceIds: ReadonlySet<string> | null }
  | { kind: 'data'; data: JsonValue };

const PLACEHOLDERS = new Set(['<not specified>', 'N/A', '<elided>', '']);

/** Tool argument/result attribute keys, in preference order (GenAI, OpenInference, ADK, NeMo Intake). */
const ARGUMENT_KEYS = [
  'gen_ai.tool.call.arguments',
  'input.value',
  'gcp.vertex.agent.tool_call_args',
  'tool_arguments',
];
const RESULT_KEYS = [
  'gen_ai.tool.call.result',
  'output.value',
  'gcp.vertex.agent.tool_response',
  'tool_response',
];

function contentValue(span: OtlpSpan, keys: readonly string[]): JsonValue | undefined {
  for (const key of keys) {
    const v = span.attributes.get(key);
    if (v === undefined) continue;
    const json = parseJsonText(anyValueToJson(v));
    if (typeof json === 'string' && PLACEHOLDERS.has(json)) return undefined;
    // Google ADK writes {"result": "<not specified>"} when a tool produced nothing.
    if (
      typeof json === 'object' &&
      json !== null &&
      !Array.isArray(json) &&
      Object.keys(json).length === 1 &&
      typeof json['result'] === 'string' &&
      PLACEHOLDERS.has(json['result'])
    ) {
      return undefined;
    }
    return json;
  }
  return undefined;
}

/** Google ADK's summary span of parallel tool calls (each call also has its own span). */
const MERGED_TOOLS = '(merged tools)';

/**
 * A tool call of a tool span whose `arguments` and `result` are own enumerable getters, computed once
 * on first read (so JSON.stringify, structuredClone and deep equality see them like plain
 * properties). The getters are shared by every call (one property descriptor each, state in private
 * fields), so the objects keep one fast shape; a per-object getter literal costs several times more.
 */
class SpanToolCall implements NormalizedToolCall {
  declare arguments: JsonValue;
  declare result: JsonValue;
  readonly id: string | null;
  readonly name: string;
  readonly isError: boolean;
  readonly origin: NormalizedToolCall['origin'];
  readonly #span: OtlpSpan;
  readonly #joins: MessageJoins;
  #arguments: JsonValue | undefined = undefined;
  #result: JsonValue | undefined = undefined;

  static readonly #ARGUMENTS: PropertyDescriptor = {
    enumerable: true,
    get(this: SpanToolCall): JsonValue {
      if (this.#arguments === undefined) {
        this.#arguments =
          contentValue(this.#span, ARGUMENT_KEYS) ?? this.#joins.askedArguments(this.id) ?? null;
      }
      return this.#arguments;
    },
  };

  static readonly #RESULT: PropertyDescriptor = {
    enumerable: true,
    get(this: SpanToolCall): JsonValue {
      if (this.#result === undefined) {
        this.#result = contentValue(this.#span, RESULT_KEYS) ?? this.#joins.result(this.id) ?? null;
      }
      return this.#result;
    },
  };

  constructor(span: OtlpSpan, id: string | null, name: string, isError: boolean, joins: MessageJoins) {
    // own properties in the order id, name, isError, origin, arguments, result
    this.id = id;
    this.name = name;
    this.isError = isError;
    this.origin = { kind: 'otlp-span', spanId: span.spanId };
    Object.defineProperty(this, 'arguments', SpanToolCall.#ARGUMENTS);
    Object.defineProperty(this, 'result', SpanToolCall.#RESULT);
    this.#span = span;
    this.#joins = joins;
  }
}

function idOf(v: string | undefined): string | null {
  return v === undefined || PLACEHOLDERS.has(v) ? null : v;
}

/**
 * Read handle over the OTLP trace of one trial (one or several traces: a conversation's turns),
 * implementing the `TrajectoryView` trajectory metrics use. Spans are de-duplicated, parent cycles
 * broken (see `SpanForest`). Rules, documented in docs/otlp.md:
 *
 * - tool calls: `execute_tool` / OpenInference `TOOL` spans in start order; a tool span whose only
 *   role is to wrap another tool span (ADK's "(merged tools)", an MCP client span around its server
 *   span) is not counted, nor ADK's "(merged tools)" summary of parallel calls; arguments/results from GenAI, OpenInference or ADK attributes, else joined
 *   by call id from the model's messages; error = status ERROR or an `error.type`. With no tool span
 *   at all, the calls the models asked for in their output messages are used instead.
 * - tokens: a span's usage counts only if no span below it carries usage (ADK's `call_llm` and its
 *   `generate_content` child, an agent span's aggregate and its model calls count once).
 * - final text: model/agent/workflow spans, roots first, latest end first; the first with answer text.
 *
 * @example
 * const h = OTLPTraceHandle.fromFile('traces/relay.jsonl');
 * h.toolCalls().map((c) => c.name); // ['get_weather', 'get_time']
 * h.tokenUsage().input; // 120
 */
export class OTLPTraceHandle implements TrajectoryView {
  readonly format = 'otlp' as const;
  #source: Source;
  #forest: SpanForest | null = null;
  /** Role of each forest node, by `node.index` (all classified at once, on first need). */
  #roles: GenAiSpanRole[] | null = null;
  /** 1 where a model-call span is below the node (by `node.index`). */
  #llmBelow: Uint8Array | null = null;
  #traceIds: string[] | null = null;
  #content: Map<SpanNode, SpanContent> | null = null;
  #attached: Map<SpanNode, ContentEvent[]> | null = null;
  #toolCalls: NormalizedToolCall[] | null = null;
  #usage: OtlpTokenUsage | null = null;
  #finalText: string | null | undefined = undefined;

  private constructor(source: Source) {
    this.#source = source;
  }

  /** A handle over spans already in memory (and the log records of their traces, if any). */
  static fromSpans(spans: Iterable<OtlpSpan>, logRecords: Iterable<OtlpLogRecord> = []): OTLPTraceHandle {
    return new OTLPTraceHandle({ kind: 'loaded', requests: null, spans: [...spans], logs: [...logRecords] });
  }

  /** A handle over decoded export requests, kept as given for `resourceSpans()`. */
  static fromRequests(requests: Iterable<OtlpExportRequest>): OTLPTraceHandle {
    const list = [...requests];
    const spans: OtlpSpan[] = [];
    const logs: OtlpLogRecord[] = [];
    for (const r of list) {
      for (const rs of r.resourceSpans) for (const ss of rs.scopeSpans) appendAll(spans, ss.spans);
      appendAll(logs, r.logRecords);
    }
    return new OTLPTraceHandle({ kind: 'loaded', requests: list, spans, logs });
  }

  /** A handle over an OTLP file (`.json`, `.jsonl`, `.pb`/`.binpb`, optionally gzip), read on first use. */
  static fromFile(path: string, options: { traceIds?: Iterable<string> } = {}): OTLPTraceHandle {
    const traceIds = options.traceIds === undefined ? null : new Set(options.traceIds);
    return new OTLPTraceHandle({ kind: 'file', path: resolve(path), traceIds });
  }

  /**
   * A handle over an evidence descriptor (SDK rules): inline `data` (an export request object or a
   * list of ResourceSpans) wins over `ref` (a local file). A ref'd file holding several trials is
   * narrowed to the traces listed in `metadata.otlp_trace_ids` (as `fromOtlpFiles` writes them).
   */
  static fromDescriptor(
    descriptor: EvidenceDescriptor,
    resolveRef: (ref: string) => string,
  ): OTLPTraceHandle {
    if (descriptor.data !== null && descriptor.data !== undefined) {
      return new OTLPTraceHandle({ kind: 'data', data: descriptor.data });
    }
    if (descriptor.ref === null)
      throw new EvidenceValueError('trace evidence descriptor requires ref or data');
    const ids = descriptor.metadata['otlp_trace_ids'];
    const traceIds = Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : undefined;
    return OTLPTraceHandle.fromFile(resolveRef(descriptor.ref), traceIds === undefined ? {} : { traceIds });
  }

  /** The file behind this handle, or null. */
  get file(): string | null {
    return this.#source.kind === 'file' ? this.#source.path : null;
  }

  #load(): Extract<Source, { kind: 'loaded' }> {
    const s = this.#source;
    if (s.kind === 'loaded') return s;
    const requests = s.kind === 'file' ? readOtlpFileSync(s.path) : [otlpJsonToRequest(s.data)];
    let loaded = OTLPTraceHandle.fromRequests(requests).#source as Extract<Source, { kind: 'loaded' }>;
    if (s.kind === 'file' && s.traceIds !== null) {
      const keep = s.traceIds;
      loaded = {
        kind: 'loaded',
        requests: null,
        spans: loaded.spans.filter((x) => keep.has(x.traceId)),
        logs: loaded.logs.filter((x) => keep.has(x.traceId)),
      };
    }
    this.#source = loaded;
    return loaded;
  }

  /**
   * All ResourceSpans of the trace in request/file order (SDK `resource_spans()`). For a handle built
   * from spans, spans are regrouped under the resource and scope they were exported with.
   */
  resourceSpans(): OtlpResourceSpans[] {
    const s = this.#load();
    if (s.requests !== null) return s.requests.flatMap((r) => [...r.resourceSpans]);
    const out: { resource: OtlpResource; scopeSpans: { scope: OtlpScope; spans: OtlpSpan[] }[] }[] = [];
    const byResource = new Map<OtlpResource, (typeof out)[number]>();
    for (const span of s.spans) {
      let rs = byResource.get(span.resource);
      if (rs === undefined) {
        rs = { resource: span.resource, scopeSpans: [] };
        byResource.set(span.resource, rs);
        out.push(rs);
      }
      let ss = rs.scopeSpans.find((x) => x.scope === span.scope);
      if (ss === undefined) {
        ss = { scope: span.scope, spans: [] };
        rs.scopeSpans.push(ss);
      }
      ss.spans.push(span);
    }
    return out.map((rs) => ({
      resource: rs.resource,
      scopeSpans: rs.scopeSpans.map((ss): OtlpScopeSpans => ({
        scope: ss.scope,
        spans: ss.spans,
        schemaUrl: '',
      })),
      schemaUrl: '',
    }));
  }

  /** Every distinct span (duplicates dropped), in input order. */
  spans(): OtlpSpan[] {
    return this.forest().nodes.map((n) => n.span);
  }

  /**
   * Log records of the trace's trace ids, in arrival order, whether they came in the trace exports or
   * in logs exports (GenAI content events, other evaluators' `gen_ai.evaluation.result`).
   */
  logRecords(): OtlpLogRecord[] {
    return [...this.#load().logs];
  }

  /** The span tree (parents resolved, duplicates dropped, cycles broken). */
  forest(): SpanForest {
    this.#forest ??= new SpanForest(this.#load().spans);
    return this.#forest;
  }

  /** Distinct trace ids, in order of first span. */
  traceIds(): string[] {
    if (this.#traceIds === null) {
      const ids: string[] = [];
      let last = '';
      for (const n of this.forest().nodes) {
        const id = n.span.traceId;
        if (id === last || (ids.length > 0 && ids.includes(id))) continue;
        ids.push(id);
        last = id;
      }
      this.#traceIds = ids;
    }
    return [...this.#traceIds];
  }

  /** Roles of every forest node by index, classified once. */
  #roleList(): GenAiSpanRole[] {
    if (this.#roles === null) {
      const nodes = this.forest().nodes;
      const roles: GenAiSpanRole[] = new Array<GenAiSpanRole>(nodes.length);
      for (let i = 0; i < nodes.length; i += 1) roles[i] = classifyGenAiSpan((nodes[i] as SpanNode).span);
      this.#roles = roles;
    }
    return this.#roles;
  }

  /** The GenAI role of a span node (cached). */
  roleOf(node: SpanNode): GenAiSpanRole {
    const nodes = this.forest().nodes;
    if (nodes[node.index] !== node) return classifyGenAiSpan(node.span);
    return this.#roleList()[node.index] as GenAiSpanRole;
  }

  /** Whether a model-call span is below `node` (a node of this handle's forest). */
  #hasLlmBelow(node: SpanNode): boolean {
    if (this.#llmBelow === null) {
      const roles = this.#roleList();
      this.#llmBelow = markAncestors(this.forest().nodes, (i) => roles[i] === 'llm');
    }
    return this.#llmBelow[node.index] === 1;
  }

  /** Message content of a span node, including attached log records. */
  contentOf(node: SpanNode): SpanContent {
    this.#content ??= new Map();
    let c = this.#content.get(node);
    if (c === undefined) {
      c = new SpanContent(node.span, this.#attachedLogs().get(node) ?? []);
      this.#content.set(node, c);
    }
    return c;
  }

  /**
   * Log records go to the span named by their span id; one without a span id goes to the only model
   * call of its trace, and is ignored when the trace has several (it cannot be placed).
   */
  #attachedLogs(): Map<SpanNode, ContentEvent[]> {
    if (this.#attached !== null) return this.#attached;
    const out = new Map<SpanNode, ContentEvent[]>();
    const logs = this.#load().logs;
    if (logs.length > 0) {
      const bySpan = new Map<string, SpanNode>();
      const llmByTrace = new Map<string, SpanNode[]>();
      for (const n of this.forest().nodes) {
        bySpan.set(`${n.span.traceId}/${n.span.spanId}`, n);
        if (this.roleOf(n) === 'llm' && !this.#hasLlmBelow(n)) {
          const list = llmByTrace.get(n.span.traceId) ?? [];
          list.push(n);
          llmByTrace.set(n.span.traceId, list);
        }
      }
      for (const log of logs) {
        let node: SpanNode | undefined;
        if (log.spanId !== '') node = bySpan.get(`${log.traceId}/${log.spanId}`);
        else {
          const llms = llmByTrace.get(log.traceId);
          if (llms?.length === 1) node = llms[0];
        }
        if (node === undefined) continue;
        const list = out.get(node) ?? [];
        list.push({ name: log.eventName, attributes: log.attributes, body: log.body });
        out.set(node, list);
      }
    }
    this.#attached = out;
    return out;
  }

  /** True when a tool span has another tool span below it, with no agent or model call in between. */
  #wrapsTool(node: SpanNode): boolean {
    if (node.children.length === 0) return false;
    const stack = [...node.children];
    while (stack.length > 0) {
      const n = stack.pop() as SpanNode;
      const role = this.roleOf(n);
      if (role === 'tool') return true;
      if (role === 'agent' || role === 'workflow' || role === 'llm') continue;
      appendAll(stack, n.children);
    }
    return false;
  }

  /** Tool calls in order (see class doc for the rules). */
  toolCalls(): NormalizedToolCall[] {
    if (this.#toolCalls !== null) return this.#toolCalls;
    const roles = this.#roleList();
    const toolNodes: SpanNode[] = [];
    const llmNodes: SpanNode[] = [];
    for (const n of this.forest().nodes) {
      const role = roles[n.index];
      if (role === 'tool') toolNodes.push(n);
      else if (role === 'llm') llmNodes.push(n);
    }
    // each in start order (the order is total: ties go by end time, then input position)
    sortInPlace(toolNodes, SpanForest.byStart);
    sortInPlace(llmNodes, SpanForest.byStart);
    const out: NormalizedToolCall[] = [];
    if (toolNodes.length > 0) {
      const joins = new MessageJoins(this, llmNodes);
      for (const n of toolNodes) {
        const s = n.span;
        const a = s.attributes;
        const name =
          a.getString('gen_ai.tool.name') ??
          a.getString('tool.name') ??
          s.name.replace(/^execute_tool\s+/, '');
        if (name === MERGED_TOOLS || this.#wrapsTool(n)) continue;
        const id = idOf(
          a.getString('gen_ai.tool.call.id') ?? a.getString('tool.id') ?? a.getString('tool_call.id'),
        );
        const errorType = a.getString('error.type');
        // arguments and results are parsed when first read (metrics rarely read results)
        const isError = s.status.code === 2 || (errorType !== undefined && errorType !== '');
        out.push(new SpanToolCall(s, id, name, isError, joins));
      }
    } else {
      const joins = new MessageJoins(this, llmNodes);
      const seen = new Set<string>();
      for (const n of llmNodes) {
        const leaf = !this.#hasLlmBelow(n);
        for (const c of this.contentOf(n).toolCalls()) {
          if (c.id !== null) {
            if (seen.has(c.id)) continue;
            seen.add(c.id);
          } else if (!leaf) continue;
          out.push({
            id: c.id,
            name: c.name,
            arguments: c.arguments,
            result: joins.result(c.id) ?? null,
            isError: false,
            origin: { kind: 'otlp-span', spanId: n.span.spanId },
          });
        }
      }
    }
    this.#toolCalls = out;
    return out;
  }

  /** Token totals, each logical model call once (see class doc). */
  tokenUsage(): OtlpTokenUsage {
    if (this.#usage !== null) return this.#usage;
    const nodes = this.forest().nodes;
    const usage: (SpanUsage | null)[] = new Array<SpanUsage | null>(nodes.length);
    for (let i = 0; i < nodes.length; i += 1)
      usage[i] = readSpanUsage((nodes[i] as SpanNode).span.attributes);
    // a span's usage counts only when no span below it carries usage
    const usageBelow = markAncestors(nodes, (i) => {
      const u = usage[i];
      return u !== null && u !== undefined && (u.input !== null || u.output !== null);
    });
    const negative: OtlpTokenUsage['negative'] = [];
    let input: number | null = null;
    let output: number | null = null;
    let cached: number | null = null;
    let cacheCreation: number | null = null;
    let costUsd: number | null = null;
    const vocabulary: string[] = [];
    const counted: string[] = [];
    for (let i = 0; i < nodes.length; i += 1) {
      const u = usage[i];
      if (u === null || u === undefined) continue;
      const spanId = (nodes[i] as SpanNode).span.spanId;
      if (u.negative !== undefined) for (const n of u.negative) negative.push({ spanId, ...n });
      if (usageBelow[i] === 1 || (u.input === null && u.output === null)) continue;
      counted.push(spanId);
      if (u.input !== null) input = (input ?? 0) + u.input;
      if (u.output !== null) output = (output ?? 0) + u.output;
      if (u.cached !== null) cached = (cached ?? 0) + u.cached;
      if (u.cacheCreation !== null) cacheCreation = (cacheCreation ?? 0) + u.cacheCreation;
      if (u.costUsd !== null) costUsd = (costUsd ?? 0) + u.costUsd;
      for (const v of u.vocabulary) if (!vocabulary.includes(v)) vocabulary.push(v);
    }
    const roles = this.#roleList();
    let llmCalls = 0;
    for (let i = 0; i < nodes.length; i += 1) {
      if (roles[i] === 'llm' && !this.#hasLlmBelow(nodes[i] as SpanNode)) llmCalls += 1;
    }
    this.#usage = {
      input,
      output,
      cached,
      cacheCreation,
      costUsd,
      llmCalls,
      countedSpanIds: counted,
      vocabulary,
      negative,
    };
    return this.#usage;
  }

  normalizedToolCalls(): NormalizedToolCall[] {
    return this.toolCalls();
  }

  normalizedTokenUsage(): NormalizedTokenUsage {
    const u = this.tokenUsage();
    return {
      input: u.input,
      output: u.output,
      cached: u.cached,
      costUsd: u.costUsd,
      vocabulary: u.vocabulary,
    };
  }

  stepCount(): number {
    return this.forest().nodes.length;
  }

  /** Top-level invocations: one per trace (a conversation's turns are separate traces). */
  turnCount(): number {
    return this.traceIds().length;
  }

  finalText(): string | null {
    if (this.#finalText !== undefined) return this.#finalText;
    const roles = this.#roleList();
    const roots: SpanNode[] = [];
    const rest: SpanNode[] = [];
    for (const n of this.forest().nodes) {
      const r = roles[n.index];
      if (r !== 'llm' && r !== 'agent' && r !== 'workflow') continue;
      if (n.parent === null) roots.push(n);
      else rest.push(n);
    }
    sortInPlace(roots, byEndDesc);
    sortInPlace(rest, byEndDesc);
    let found: string | null = null;
    for (const n of roots) {
      found = this.contentOf(n).outputText();
      if (found !== null) break;
    }
    if (found === null) {
      for (const n of rest) {
        found = this.contentOf(n).outputText();
        if (found !== null) break;
      }
    }
    this.#finalText = found;
    return found;
  }
}

/** Latest end first; ties: later input position first. */
function byEndDesc(a: SpanNode, b: SpanNode): number {
  const ea = a.span.endTimeUnixNano;
  const eb = b.span.endTimeUnixNano;
  return ea === eb ? b.index - a.index : ea > eb ? -1 : 1;
}

/**
 * 1 for every node that has a descendant satisfying `test` (by node index): each matching node marks
 * its ancestors, stopping at one already marked (its ancestors are then marked too).
 */
function markAncestors(nodes: readonly SpanNode[], test: (index: number) => boolean): Uint8Array {
  const below = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i += 1) {
    if (!test(i)) continue;
    for (let p = (nodes[i] as SpanNode).parent; p !== null && below[p.index] === 0; p = p.parent) {
      below[p.index] = 1;
    }
  }
  return below;
}

/**
 * What the model calls' messages say about tool calls, read on first need: the arguments the models
 * asked for and the results they were given, by call id (first occurrence wins).
 */
class MessageJoins {
  readonly #handle: OTLPTraceHandle;
  readonly #llmNodes: readonly SpanNode[];
  #asked: Map<string, JsonValue> | null = null;
  #results: Map<string, MessageToolResult> | null = null;

  constructor(handle: OTLPTraceHandle, llmNodes: readonly SpanNode[]) {
    this.#handle = handle;
    this.#llmNodes = llmNodes;
  }

  askedArguments(id: string | null): JsonValue | undefined {
    if (id === null) return undefined;
    if (this.#asked === null) {
      const asked = new Map<string, JsonValue>();
      for (const l of this.#llmNodes) {
        for (const c of this.#handle.contentOf(l).toolCalls())
          if (c.id !== null && !asked.has(c.id)) asked.set(c.id, c.arguments);
      }
      this.#asked = asked;
    }
    return this.#asked.get(id);
  }

  result(id: string | null): JsonValue | undefined {
    if (id === null) return undefined;
    if (this.#results === null) {
      const results = new Map<string, MessageToolResult>();
      for (const n of this.#llmNodes) {
        for (const r of this.#handle.contentOf(n).toolResults())
          if (r.id !== null && !results.has(r.id)) results.set(r.id, r);
      }
      this.#results = results;
    }
    return this.#results.get(id)?.result;
  }
}
