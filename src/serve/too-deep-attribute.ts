import { OtlpDecodeError } from '../evidence/otlp/otlp-decode-error.js';
import type {
  OtlpAnyValue,
  OtlpAttributes,
  OtlpResource,
  OtlpScope,
  OtlpSpan,
} from '../evidence/otlp/otlp-types.js';

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
 * resource's and scope's attributes, shared by their spans, are walked once per `shared` memo (give
 * the spans of one request the same one).
 *
 * @example
 * tooDeepAttribute(span); // "attribute 'payload' nests deeper than 64 levels" or null
 */
export function tooDeepAttribute(
  span: OtlpSpan,
  shared: SharedAttributeChecks = new SharedAttributeChecks(),
): string | null {
  const maxDepth = MAX_ATTRIBUTE_DEPTH;
  try {
    const around = shared.resource(span.resource);
    if (around !== null) return `resource attribute '${around}' nests deeper than ${maxDepth} levels`;
    const scope = shared.scope(span.scope);
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
    if (error instanceof RangeError) return `an attribute nests too deeply to be read (${error.message})`;
    // a part of the request decoded only now, when its attributes are walked, is corrupt
    if (error instanceof OtlpDecodeError) return `an attribute does not decode (${error.message})`;
    throw error;
  }
}

/**
 * What {@link tooDeepAttribute} found in the attributes of the last resource and scope it met: the
 * spans of one request share them, so one memo per request walks each of them once (a `WeakMap` by
 * resource, kept across requests, cost more per span in lookups than the walk it saved).
 */
export class SharedAttributeChecks {
  #resource: OtlpResource | null = null;
  #resourceKey: string | null = null;
  #scope: OtlpScope | null = null;
  #scopeKey: string | null = null;

  /** The first too-deep key of `resource`'s attributes, or null. */
  resource(resource: OtlpResource): string | null {
    if (resource !== this.#resource) {
      this.#resourceKey = deepKey(resource.attributes, MAX_ATTRIBUTE_DEPTH);
      this.#resource = resource;
    }
    return this.#resourceKey;
  }

  /** The first too-deep key of `scope`'s attributes, or null. */
  scope(scope: OtlpScope): string | null {
    if (scope !== this.#scope) {
      this.#scopeKey = deepKey(scope.attributes, MAX_ATTRIBUTE_DEPTH);
      this.#scope = scope;
    }
    return this.#scopeKey;
  }
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
