import type { OtlpAttributes } from './otlp-types.js';

/** Token usage one span reports, and the vocabularies its numbers came from. */
export interface SpanUsage {
  input: number | null;
  output: number | null;
  cached: number | null;
  cacheCreation: number | null;
  costUsd: number | null;
  vocabulary: string[];
  /** Token counts below zero the span reports, left out of every number above; absent: none. */
  negative?: { key: string; value: number }[];
}

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * Negative counts met by `count` in the span being read, null while there are none (module state:
 * reading is synchronous).
 */
let negative: { key: string; value: number }[] | null = null;

function num(a: OtlpAttributes, key: string): number | null {
  const v = a.get(key);
  if (v === undefined) return null;
  if (v.type === 'int') return Number(v.value);
  if (v.type === 'double') return Number.isFinite(v.value) ? v.value : null;
  if (v.type === 'string' && NUMERIC.test(v.value)) return Number(v.value);
  return null;
}

/** A token count: as `num`, but a count below zero is noted in `negative` and read as absent. */
function count(a: OtlpAttributes, key: string): number | null {
  const n = num(a, key);
  if (n === null || n >= 0) return n;
  (negative ??= []).push({ key, value: n });
  return null;
}

function first(
  a: OtlpAttributes,
  keys: readonly string[],
  read: (a: OtlpAttributes, key: string) => number | null,
): number | null {
  for (const k of keys) {
    const n = read(a, k);
    if (n !== null) return n;
  }
  return null;
}

/**
 * Reads token usage from a span's attributes: OTel GenAI (`gen_ai.usage.input_tokens` /
 * `output_tokens`), its deprecated names (`prompt_tokens` / `completion_tokens`), OpenInference
 * (`llm.token_count.prompt` / `completion`), in that order per field. Cached input: GenAI
 * `cache_read.input_tokens`, then the spellings seen in the wild (`cache_read_input_tokens`, NeMo's
 * `cached_tokens`), then OpenInference `prompt_details.cache_read`. Returns null when the span reports
 * neither input nor output tokens (nor a negative count). Integer, double and numeric-string values
 * are accepted. A token count below zero is read as absent (the next spelling is tried) and listed in
 * `negative`.
 *
 * @example
 * readSpanUsage(span.attributes); // { input: 20, output: 5, ..., vocabulary: ['gen_ai'] }
 */
export function readSpanUsage(a: OtlpAttributes): SpanUsage | null {
  if (a.size === 0) return null;
  negative = null;
  // most spans report no usage: nothing is allocated for them
  let inputVocab: string | null = null;
  let input = count(a, 'gen_ai.usage.input_tokens');
  if (input !== null) inputVocab = 'gen_ai';
  else if ((input = count(a, 'gen_ai.usage.prompt_tokens')) !== null) inputVocab = 'gen_ai-deprecated';
  else if ((input = count(a, 'llm.token_count.prompt')) !== null) inputVocab = 'openinference';
  let output = count(a, 'gen_ai.usage.output_tokens');
  let vocab: string | null = null;
  if (output !== null) vocab = 'gen_ai';
  else if ((output = count(a, 'gen_ai.usage.completion_tokens')) !== null) vocab = 'gen_ai-deprecated';
  else if ((output = count(a, 'llm.token_count.completion')) !== null) vocab = 'openinference';
  if (input === null && output === null && negative === null) return null;
  const vocabulary = inputVocab === null ? [] : [inputVocab];
  if (vocab !== null && vocab !== inputVocab) vocabulary.push(vocab);
  const usage: SpanUsage = {
    input,
    output,
    cached: first(a, CACHED_KEYS, count),
    cacheCreation: first(a, CACHE_CREATION_KEYS, count),
    costUsd: first(a, COST_KEYS, num),
    vocabulary,
  };
  if (negative !== null) usage.negative = negative;
  return usage;
}

const CACHED_KEYS = [
  'gen_ai.usage.cache_read.input_tokens',
  'gen_ai.usage.cache_read_input_tokens',
  'gen_ai.usage.cached_tokens',
  'llm.token_count.prompt_details.cache_read',
];
const CACHE_CREATION_KEYS = [
  'gen_ai.usage.cache_creation.input_tokens',
  'gen_ai.usage.cache_write.input_tokens',
  'gen_ai.usage.cache_creation_input_tokens',
  'llm.token_count.prompt_details.cache_write',
];
const COST_KEYS = ['gen_ai.usage.cost', 'llm.cost.total'];
