import { OtlpDecodeError } from '../evidence/otlp/otlp-decode-error.js';
import type { OtlpAnyValue, OtlpAttributes, OtlpSpan } from '../evidence/otlp/otlp-types.js';

/**
 * Most levels of `arrayValue` / `kvlistValue` nesting `serve` takes in one attribute value. Agent
 * telemetry nests a few levels; a value thousands of levels deep only exhausts the stack of code that
 * walks it (decoders, JSON writers, the store), so such a span is refused when it arrives.
 */
const MAX_ATTRIBUTE_DEPTH = 64;

/**
 * Names the first attribute of `span` (its own, its events', its links', its resource's or its
 * scope's) nested more than {@link MAX_ATTRIBUTE_DEPTH} levels deep, or null when there is none. Walks the values with
 * a stack of its own (no recursion); a value the decoder cannot even read back for its depth counts as
 * too deep. Arrays and kvlists count as levels; the scalars inside the deepest of them do not. The
 * resource's and scope's attributes, shared by their spans, are walked once.
 *
 * @example
 * tooDeepAttribute(span); // "attribute 'payload' nests deeper than 64 levels" or null
 */
export function tooDeepAttribute(span: OtlpSpan): string | null {
  const maxDepth = MAX_ATTRIBUTE_DEPTH;
  try {
    const around = sharedDeepKey(span.resource.attributes);
    if (around !== null) return `resource attribute '${around}' nests deeper than ${maxDepth} levels`;
    const scope = sharedDeepKey(span.scope.attributes);
    if (scope !== null) return `scope attribute '${scope}' nests deeper than ${maxDepth} levels`;
    const own = deepKey(span.attributes, maxDepth);
    if (own !== null) return `attribute '${own}' nests deeper than ${maxDepth} levels`;
    for (const event of span.events) {
      const key = deepKey(event.attributes, maxDepth);
      if (key !== null)
        return `event '${event.name}' attribute '${key}' nests deeper than ${maxDepth} levels`;
    }
    for (const link of span.links) {
      const key = deepKey(link.attributes, maxDepth);
      if (key !== null) return `link attribute '${key}' nests deeper than ${maxDepth} levels`;
    }
    return null;
  } catch (error) {
    if (error instanceof RangeError || error instanceof OtlpDecodeError)
      return `an attribute nests too deeply to be read (${error.message})`;
    throw error;
  }
}

/** {@link deepKey} of attributes shared by many spans (a resource's, a scope's). */
const sharedChecked = new WeakMap<OtlpAttributes, string | null>();

function sharedDeepKey(attributes: OtlpAttributes): string | null {
  if (attributes.size === 0) return null;
  let key = sharedChecked.get(attributes);
  if (key === undefined) sharedChecked.set(attributes, (key = deepKey(attributes, MAX_ATTRIBUTE_DEPTH)));
  return key;
}

function deepKey(attributes: OtlpAttributes, maxDepth: number): string | null {
  if (attributes.size === 0 || !attributes.mayNest()) return null;
  for (const key of attributes.keys()) {
    let value: OtlpAnyValue | undefined;
    try {
      value = attributes.get(key);
    } catch (error) {
      // the decoder refused the value (past its own depth bound) or its recursion gave out
      if (error instanceof RangeError || error instanceof OtlpDecodeError) return key;
      throw error;
    }
    if (
      value !== undefined &&
      (value.type === 'array' || value.type === 'kvlist') &&
      depthExceeds(value, maxDepth)
    )
      return key;
  }
  return null;
}

function depthExceeds(root: OtlpAnyValue, maxDepth: number): boolean {
  const stack: { value: OtlpAnyValue; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value.type !== 'array' && value.type !== 'kvlist') continue;
    if (depth > maxDepth) return true;
    if (value.type === 'array') for (const v of value.values) stack.push({ value: v, depth: depth + 1 });
    else if (value.type === 'kvlist')
      for (const kv of value.values) stack.push({ value: kv.value, depth: depth + 1 });
  }
  return false;
}
