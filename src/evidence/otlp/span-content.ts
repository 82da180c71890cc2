import type { JsonObject, JsonValue } from '../../model/json-value.js';
import { anyValueToJson } from './any-value-to-json.js';
import { parseJsonText } from './parse-json-text.js';
import { ListAttributes } from './list-attributes.js';
import type { OtlpAnyValue, OtlpAttributes, OtlpSpan } from './otlp-types.js';

/** A span event or a log record attached to a span: where older instrumentations put content. */
export interface ContentEvent {
  readonly name: string;
  readonly attributes: OtlpAttributes;
  readonly body: OtlpAnyValue;
}

/** A tool call a model asked for, read from its output messages. */
export interface MessageToolCall {
  id: string | null;
  name: string;
  arguments: JsonValue;
}

/** A tool result sent back to a model, read from its input messages. */
export interface MessageToolResult {
  id: string | null;
  name: string | null;
  result: JsonValue;
}

/** Placeholders producers write instead of content when capture is off. */
const PLACEHOLDERS = new Set(['<elided>', '<not specified>', 'N/A']);

function isObj(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: JsonValue | undefined): string | null {
  return typeof v === 'string' && v !== '' && !PLACEHOLDERS.has(v) ? v : null;
}

/** Messages given as a JSON string or as structured attribute values. */
function messagesOf(v: OtlpAnyValue | undefined): JsonValue[] {
  if (v === undefined) return [];
  const parsed = parseJsonText(anyValueToJson(v));
  if (Array.isArray(parsed)) return parsed;
  return isObj(parsed) ? [parsed] : [];
}

/** Text of a message: its `text` parts joined, or a plain string `content`. */
function messageText(m: JsonValue): string | null {
  if (!isObj(m)) return null;
  const parts = m['parts'];
  if (Array.isArray(parts)) {
    const texts = parts
      .filter((p) => isObj(p) && p['type'] === 'text')
      .map((p) => text((p as JsonObject)['content']));
    const joined = texts.filter((t): t is string => t !== null).join('');
    return joined === '' ? null : joined;
  }
  return text(m['content']);
}

function callFrom(
  id: JsonValue | undefined,
  name: JsonValue | undefined,
  args: JsonValue | undefined,
): MessageToolCall | null {
  if (typeof name !== 'string' || name === '') return null;
  return {
    id: typeof id === 'string' && id !== '' ? id : null,
    name,
    arguments: args === undefined ? null : parseJsonText(args),
  };
}

/** Tool calls of a message: `tool_call` parts (GenAI) or an OpenAI-style `tool_calls` list. */
function messageToolCalls(m: JsonValue): MessageToolCall[] {
  if (!isObj(m)) return [];
  const out: MessageToolCall[] = [];
  const parts = m['parts'];
  if (Array.isArray(parts)) {
    for (const p of parts) {
      if (!isObj(p) || p['type'] !== 'tool_call') continue;
      const c = callFrom(p['id'], p['name'], p['arguments']);
      if (c !== null) out.push(c);
    }
  }
  const calls = m['tool_calls'];
  if (Array.isArray(calls)) {
    for (const tc of calls) {
      if (!isObj(tc)) continue;
      const fn = isObj(tc['function']) ? tc['function'] : tc;
      const c = callFrom(tc['id'], fn['name'], fn['arguments']);
      if (c !== null) out.push(c);
    }
  }
  return out;
}

/** Tool results of a message: `tool_call_response` parts or a `tool` role message. */
function messageToolResults(m: JsonValue): MessageToolResult[] {
  if (!isObj(m)) return [];
  const out: MessageToolResult[] = [];
  const parts = m['parts'];
  if (Array.isArray(parts)) {
    for (const p of parts) {
      if (!isObj(p) || p['type'] !== 'tool_call_response') continue;
      const id = p['id'];
      out.push({
        id: typeof id === 'string' ? id : null,
        name: null,
        result: parseJsonText(p['response'] ?? null),
      });
    }
    return out;
  }
  if (m['role'] === 'tool') {
    const id = m['tool_call_id'] ?? m['id'];
    const content = m['content'];
    if (text(content ?? null) !== null || (content !== undefined && typeof content !== 'string')) {
      out.push({
        id: typeof id === 'string' ? id : null,
        name: null,
        result: parseJsonText(content ?? null),
      });
    }
  }
  return out;
}

/** Flattened indexed attributes (`prefix.{i}.rest`) grouped by index, in index order. */
function indexed(a: OtlpAttributes, prefix: string): Map<number, Map<string, OtlpAnyValue>> {
  const out = new Map<number, Map<string, OtlpAnyValue>>();
  for (const key of a.keys()) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    const dot = rest.indexOf('.');
    const i = Number(dot < 0 ? rest : rest.slice(0, dot));
    if (!Number.isInteger(i) || dot < 0) continue;
    const v = a.get(key);
    if (v === undefined) continue;
    let m = out.get(i);
    if (m === undefined) out.set(i, (m = new Map()));
    m.set(rest.slice(dot + 1), v);
  }
  return new Map([...out.entries()].sort((x, y) => x[0] - y[0]));
}

function str(v: OtlpAnyValue | undefined): string | undefined {
  return v?.type === 'string' ? v.value : undefined;
}

/** Google ADK's `gcp.vertex.agent.llm_response` / `llm_request` JSON (Gemini `Content` parts). */
function adkParts(a: OtlpAttributes, key: string): JsonObject[] {
  const raw = a.getString(key);
  if (raw === undefined || raw === '{}') return [];
  const doc = parseJsonText(raw);
  if (!isObj(doc)) return [];
  const contents: JsonValue[] = isObj(doc['content'])
    ? [doc['content']]
    : Array.isArray(doc['contents'])
      ? doc['contents']
      : [];
  const parts: JsonObject[] = [];
  for (const c of contents) {
    if (!isObj(c) || !Array.isArray(c['parts'])) continue;
    for (const p of c['parts']) if (isObj(p)) parts.push(p);
  }
  return parts;
}

/**
 * Reads the message content of one span across the vocabularies producers use: GenAI
 * `gen_ai.input.messages` / `gen_ai.output.messages` (attributes, or a
 * `gen_ai.client.inference.operation.details` event/log), GenAI events (`gen_ai.choice`,
 * `gen_ai.tool.message`), OpenInference `output.value` and `llm.{input,output}_messages.*`,
 * OpenLLMetry `gen_ai.{prompt,completion}.*`, Google ADK `gcp.vertex.agent.llm_{request,response}`.
 * Nothing is parsed until asked for. Placeholders such as `<elided>` count as no content.
 *
 * @example
 * new SpanContent(span, []).outputText(); // 'It is sunny and 21C in Paris.'
 */
export class SpanContent {
  readonly #span: OtlpSpan;
  readonly #events: readonly ContentEvent[];

  constructor(span: OtlpSpan, attached: readonly ContentEvent[]) {
    this.#span = span;
    this.#events = attached;
  }

  /** Every event carrying content: the span's own events, then attached log records. */
  #allEvents(): ContentEvent[] {
    const own: ContentEvent[] = this.#span.events.map((e) => ({
      name: e.name,
      attributes: e.attributes,
      body: { type: 'empty' },
    }));
    return [...own, ...this.#events];
  }

  /** `gen_ai.{input,output}.messages` from the span's attributes, else from a details event. */
  #genAiMessages(key: 'gen_ai.input.messages' | 'gen_ai.output.messages'): JsonValue[] {
    const own = messagesOf(this.#span.attributes.get(key));
    if (own.length > 0) return own;
    for (const e of this.#allEvents()) {
      const m = messagesOf(e.attributes.get(key));
      if (m.length > 0) return m;
    }
    return [];
  }

  /** The span's answer text (see class doc for the sources, first non-empty wins). */
  outputText(): string | null {
    const a = this.#span.attributes;
    const ov = text(a.getString('output.value') ?? null);
    if (ov !== null) return ov;
    const out = this.#genAiMessages('gen_ai.output.messages');
    if (out.length > 0) {
      const assistant = out.filter((m) => isObj(m) && (m['role'] === undefined || m['role'] === 'assistant'));
      const last = assistant[assistant.length - 1];
      const t = last === undefined ? null : messageText(last);
      if (t !== null) return t;
    }
    const fr = text(a.getString('final_result') ?? null);
    if (fr !== null) return fr;
    const adk = adkParts(a, 'gcp.vertex.agent.llm_response')
      .filter((p) => p['thought'] !== true)
      .map((p) => text(p['text']))
      .filter((t): t is string => t !== null)
      .join('');
    if (adk !== '') return adk;
    for (const prefix of ['gen_ai.completion.', 'llm.output_messages.']) {
      const msgs = [...indexed(a, prefix).values()].reverse();
      for (const m of msgs) {
        const role = str(m.get('role') ?? m.get('message.role'));
        const content = text(str(m.get('content') ?? m.get('message.content')) ?? null);
        if (content !== null && (role === undefined || role === 'assistant')) return content;
      }
    }
    const choices = this.#allEvents().filter((e) => e.name === 'gen_ai.choice');
    for (const e of choices.reverse()) {
      const body = anyValueToJson(e.body);
      const msg = isObj(body) && isObj(body['message']) ? body['message'] : body;
      const t = messageText(msg);
      if (t !== null) return t;
    }
    return null;
  }

  /** Tool calls the model asked for in its output (first vocabulary that has any). */
  toolCalls(): MessageToolCall[] {
    const a = this.#span.attributes;
    const fromGenAi = this.#genAiMessages('gen_ai.output.messages').flatMap(messageToolCalls);
    if (fromGenAi.length > 0) return fromGenAi;
    const fromChoice = this.#allEvents()
      .filter((e) => e.name === 'gen_ai.choice')
      .flatMap((e) => {
        const body = anyValueToJson(e.body);
        return messageToolCalls(isObj(body) && isObj(body['message']) ? body['message'] : body);
      });
    if (fromChoice.length > 0) return fromChoice;
    const flat: MessageToolCall[] = [];
    for (const m of indexed(a, 'gen_ai.completion.').values()) {
      for (const c of indexed(attrsOf(m), 'tool_calls.').values()) {
        const call = callFrom(
          str(c.get('id')) ?? null,
          str(c.get('name')),
          anyValueToJson(c.get('arguments')),
        );
        if (call !== null) flat.push(call);
      }
    }
    for (const m of indexed(a, 'llm.output_messages.').values()) {
      for (const c of indexed(attrsOf(m), 'message.tool_calls.').values()) {
        const call = callFrom(
          str(c.get('tool_call.id')) ?? null,
          str(c.get('tool_call.function.name')),
          anyValueToJson(c.get('tool_call.function.arguments')),
        );
        if (call !== null) flat.push(call);
      }
    }
    if (flat.length > 0) return flat;
    const adk: MessageToolCall[] = [];
    for (const p of adkParts(a, 'gcp.vertex.agent.llm_response')) {
      const fc = p['function_call'] ?? p['functionCall'];
      if (!isObj(fc)) continue;
      const call = callFrom(fc['id'] ?? null, fc['name'], fc['args'] ?? null);
      if (call !== null) adk.push(call);
    }
    return adk;
  }

  /** Tool results the model was given in its input, from every vocabulary present. */
  toolResults(): MessageToolResult[] {
    const a = this.#span.attributes;
    const out = this.#genAiMessages('gen_ai.input.messages').flatMap(messageToolResults);
    for (const e of this.#allEvents()) {
      if (e.name !== 'gen_ai.tool.message') continue;
      const body = anyValueToJson(e.body);
      if (!isObj(body)) continue;
      const id = body['id'] ?? body['tool_call_id'];
      out.push({
        id: typeof id === 'string' ? id : null,
        name: null,
        result: parseJsonText(body['content'] ?? null),
      });
    }
    for (const prefix of ['gen_ai.prompt.', 'llm.input_messages.']) {
      for (const m of indexed(a, prefix).values()) {
        const role = str(m.get('role') ?? m.get('message.role'));
        if (role !== 'tool') continue;
        const id = str(m.get('tool_call_id') ?? m.get('message.tool_call_id')) ?? null;
        out.push({
          id,
          name: null,
          result: parseJsonText(anyValueToJson(m.get('content') ?? m.get('message.content'))),
        });
      }
    }
    for (const p of adkParts(a, 'gcp.vertex.agent.llm_request')) {
      const fr = p['function_response'] ?? p['functionResponse'];
      if (!isObj(fr)) continue;
      const id = fr['id'];
      const name = fr['name'];
      out.push({
        id: typeof id === 'string' ? id : null,
        name: typeof name === 'string' ? name : null,
        result: fr['response'] ?? null,
      });
    }
    return out;
  }
}

/** A `Map` of sub-keys as attributes, so `indexed` can be applied again one level down. */
function attrsOf(m: Map<string, OtlpAnyValue>): OtlpAttributes {
  return new ListAttributes([...m.entries()].map(([key, value]) => ({ key, value })));
}
