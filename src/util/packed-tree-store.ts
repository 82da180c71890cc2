import { grownTypedArray } from './grown-typed-array.js';
import { Utf8StringPool } from './utf8-string-pool.js';

/** Structural steps of a tree walk (leaf kinds double as steps). */
const OPEN_OBJECT = 0;
const OPEN_ARRAY = 1;
const CLOSE = 2;
const NUMBER = 3;
const STRING = 4;
const TRUE = 5;
const FALSE = 6;
const NULL = 7;
const UNDEFINED = 8;
/** Anything else (class instances, bigints, functions, symbols): kept by reference. */
const OPAQUE = 9;

/**
 * Default bound on distinct shapes (each compiles one function): past it, trees of new shapes (say,
 * objects keyed by data) are kept as they are, by reference.
 */
const MAX_SHAPES = 4096;

/**
 * Longer arrays are kept by reference (an array is a shape position per element: long arrays of
 * varying length would make a shape, and a compiled function, per length).
 */
const MAX_PACKED_ARRAY = 64;

/** Objects with more keys are kept by reference (each key is a step of the shape and of its code). */
const MAX_PACKED_KEYS = 256;

/**
 * Containers nested deeper than this are kept by reference (the walk is recursive: hostile input
 * nested thousands of levels deep must not overflow the stack).
 */
const MAX_PACKED_DEPTH = 32;

/** Strings up to this length are looked up in their column's table of repeated values. */
const MAX_INTERNED_LENGTH = 128;
/** Most distinct values a string column interns; later new values are kept as they are. */
const MAX_INTERNED_PER_COLUMN = 1024;
/**
 * A column whose values mostly differ (ids) stops looking values up once this many were new: each
 * lookup of a new string hashes it, for nothing.
 */
const UNIQUE_AFTER_MISSES = 64;

/** How a shape rebuilds its tree: objects with their keys in order, arrays, and leaves. */
type Template =
  | { readonly kind: 'object'; readonly keys: readonly string[]; readonly children: readonly Template[] }
  | { readonly kind: 'array'; readonly children: readonly Template[] }
  | { readonly kind: 'leaf'; readonly leaf: number; readonly column: number };

/** One step of the shape trie. A node reached by a finished walk is a shape. */
class ShapeNode {
  keys: Map<string, ShapeNode> | null = null;
  /** The key step taken last from here (records of one structure take the same one every time). */
  lastKey: string | null = null;
  lastKeyNext: ShapeNode | null = null;
  readonly steps: (ShapeNode | undefined)[] = [];
  shape = -1;
}

/** The interned values of one string leaf position of one shape. */
class StringColumn {
  readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  hits = 0;
  /** True once the column's values have shown to be mostly distinct: they are pooled, not looked up. */
  unique = false;
}

/** The value behind a negative code: a pooled string or a value kept by reference. */
type ResolveCode = (code: number) => unknown;

/** Rebuilds one tree of a shape from the store's arrays, starting at its first number and code. */
type Builder = (
  numbers: Float64Array,
  codes: Int32Array,
  resolve: ResolveCode,
  n: number,
  c: number,
) => unknown;

/**
 * Whether a tree has exactly one shape's structure (keys in order, leaf kinds); if so, its numbers
 * have been written to `numbers` from `at` and its string and by-reference leaves to `leaves` from 0,
 * in walk order (as many as the shape has: `Shape.numbers`, `Shape.columns.length`).
 */
type Matcher = (tree: unknown, numbers: Float64Array, at: number, leaves: unknown[]) => boolean;

interface Shape {
  readonly columns: readonly StringColumn[];
  /** Number leaves of every tree of the shape. */
  readonly numbers: number;
  readonly build: Builder;
  readonly match: Matcher;
}

/**
 * Keeps many JSON-like trees (plain objects and arrays of strings, numbers, booleans, null and
 * undefined) in a few large arrays instead of as objects on the heap: each tree is stored as its
 * shape (keys in order and leaf kinds, shared by every tree with the same structure), its numbers in
 * a `Float64Array`, and its strings either as the index of a repeated value (a shape's string
 * position interns up to {@link MAX_INTERNED_PER_COLUMN} short values) or as UTF-8 bytes in a
 * {@link Utf8StringPool} (ids, long texts; a string a tree repeats is pooled once per tree; a string
 * with a lone surrogate, which has no UTF-8 form, by reference). A tree of ~50 objects and a dozen
 * unique strings thus costs the garbage collector nothing to mark at a major collection. `get`
 * rebuilds an equal tree: same keys in the same order, same values (`-0`, `NaN` and infinities kept
 * exactly), fresh unfrozen objects and flat strings. Anything that is not plain data (a
 * class instance, a null-prototype object, a bigint) is kept by reference. Trees are append-only; `get(i)` reads tree `i`.
 *
 * @example
 * const store = new PackedTreeStore();
 * const i = store.add({ id: 't1', scores: [{ name: 'ok', value: 1 }] });
 * store.get(i); // { id: 't1', scores: [{ name: 'ok', value: 1 }] }
 */
export class PackedTreeStore {
  readonly #maxShapes: number;
  readonly #root = new ShapeNode();
  /** Where a walk ends once it leaves the known shapes while no new shape may be made. */
  readonly #dead = new ShapeNode();
  #creating = true;
  readonly #shapes: Shape[] = [];
  #shapeOf = new Int32Array(1024);
  #numberStart = new Float64Array(1024);
  #codeStart = new Float64Array(1024);
  #count = 0;
  #numbers = new Float64Array(16384);
  #numberCount = 0;
  /**
   * Per string or opaque leaf: an interned id (≥ 0), or −1 − x for the rest: x = 2i + 1 for string
   * i of `#pool`, x = 2i for value i of `#refs`.
   */
  #codes = new Int32Array(16384);
  #codeCount = 0;
  readonly #refs: unknown[] = [];
  /** Strings not interned (ids, long texts), as UTF-8 bytes off the heap. */
  readonly #pool = new Utf8StringPool();
  /** The tree being added: its pooled strings' codes (one copy of a string the tree repeats). */
  readonly #pooledInTree = new Map<string, number>();
  readonly #resolve: ResolveCode = (code) => {
    const x = -1 - code;
    return x & 1 ? this.#pool.get(x >>> 1) : this.#refs[x >>> 1];
  };

  // scratch of the walk in progress
  #node: ShapeNode = this.#root;
  /**
   * The walk's strings and by-reference values, in order: the first `#leafCount` (written by index,
   * never truncated: emptying an array frees its storage, and the next tree grew it again).
   */
  readonly #leafValues: unknown[] = [];
  #leafCount = 0;
  /** The shape of the tree added last (-1: none): the next tree is matched against it first. */
  #lastShape = -1;

  constructor(options: { maxShapes?: number } = {}) {
    this.#maxShapes = options.maxShapes ?? MAX_SHAPES;
  }

  /** Number of trees stored. */
  get size(): number {
    return this.#count;
  }

  /** Number of distinct shapes seen. */
  get shapeCount(): number {
    return this.#shapes.length;
  }

  /**
   * Stores a tree; returns its index. Records of one structure mostly follow each other: a tree is
   * first matched against the last tree's shape by that shape's compiled matcher (no key lists, no
   * trie steps), and walked only when it differs.
   */
  add(tree: unknown): number {
    this.#leafCount = 0;
    this.#pooledInTree.clear();
    const numberStart = this.#numberCount;
    const codeStart = this.#codeCount;
    let shapeId = this.#lastShape >= 0 ? this.#matchLast(tree) : -1;
    if (shapeId < 0) {
      this.#node = this.#root;
      this.#creating = this.#shapes.length < this.#maxShapes;
      this.#walk(tree, 0);
      const node = this.#node;
      if (node.shape < 0 && !this.#creating) {
        // a new shape past the bound: the tree is kept as it is
        this.#numberCount = numberStart;
        this.#leafCount = 0;
        this.#reserveCodes(1);
        this.#codes[this.#codeCount++] = this.#ref(tree);
        return this.#push(-1, numberStart, codeStart);
      }
      if (node.shape < 0) node.shape = this.#newShape(tree);
      shapeId = node.shape;
      this.#lastShape = shapeId;
    }
    const shape = this.#shapes[shapeId] as Shape;
    const leaves = this.#leafCount;
    this.#reserveCodes(leaves);
    for (let i = 0; i < leaves; i++) {
      const value = this.#leafValues[i];
      this.#codes[this.#codeCount++] =
        typeof value === 'string'
          ? this.#stringCode(shape.columns[i] as StringColumn, value)
          : this.#ref(value);
    }
    this.#leafCount = 0;
    return this.#push(shapeId, numberStart, codeStart);
  }

  /** The last shape's id when `tree` has it (its leaves gathered as the walk would), else -1. */
  #matchLast(tree: unknown): number {
    const shape = this.#shapes[this.#lastShape] as Shape;
    // the numbers go straight to their place; they count only once the tree matched
    if (this.#numberCount + shape.numbers > this.#numbers.length)
      this.#numbers = grownTypedArray(
        this.#numbers,
        Math.max(this.#numberCount + shape.numbers, this.#numbers.length * 2),
      );
    if (!shape.match(tree, this.#numbers, this.#numberCount, this.#leafValues)) return -1;
    this.#numberCount += shape.numbers;
    this.#leafCount = shape.columns.length;
    return this.#lastShape;
  }

  #push(shape: number, numberStart: number, codeStart: number): number {
    const index = this.#count;
    if (index === this.#shapeOf.length) {
      this.#shapeOf = grownTypedArray(this.#shapeOf, index * 2);
      this.#numberStart = grownTypedArray(this.#numberStart, index * 2);
      this.#codeStart = grownTypedArray(this.#codeStart, index * 2);
    }
    this.#shapeOf[index] = shape;
    this.#numberStart[index] = numberStart;
    this.#codeStart[index] = codeStart;
    this.#count = index + 1;
    return index;
  }

  /** Rebuilds tree `index` (a new, equal tree at every call). */
  get(index: number): unknown {
    if (!(index >= 0 && index < this.#count))
      throw new RangeError(`no tree ${index} (${this.#count} stored)`);
    const shapeId = this.#shapeOf[index] as number;
    if (shapeId < 0) return this.#resolve(this.#codes[this.#codeStart[index] as number] as number);
    const shape = this.#shapes[shapeId] as Shape;
    return shape.build(
      this.#numbers,
      this.#codes,
      this.#resolve,
      this.#numberStart[index] as number,
      this.#codeStart[index] as number,
    );
  }

  #step(step: number): void {
    const node = this.#node;
    let next = node.steps[step];
    if (next === undefined) {
      if (!this.#creating) {
        this.#node = this.#dead;
        return;
      }
      next = new ShapeNode();
      node.steps[step] = next;
    }
    this.#node = next;
  }

  #stepKey(key: string): void {
    const node = this.#node;
    if (node.lastKey === key) {
      this.#node = node.lastKeyNext as ShapeNode;
      return;
    }
    let next = node.keys?.get(key);
    if (next === undefined) {
      if (!this.#creating) {
        this.#node = this.#dead;
        return;
      }
      node.keys ??= new Map();
      next = new ShapeNode();
      node.keys.set(key, next);
    }
    node.lastKey = key;
    node.lastKeyNext = next;
    this.#node = next;
  }

  #walk(value: unknown, depth: number): void {
    const kind = kindOf(value, depth);
    switch (kind) {
      case NUMBER:
        this.#step(NUMBER);
        if (this.#numberCount === this.#numbers.length)
          this.#numbers = grownTypedArray(this.#numbers, this.#numbers.length * 2);
        this.#numbers[this.#numberCount++] = value as number;
        return;
      case OPEN_ARRAY: {
        const array = value as unknown[];
        this.#step(OPEN_ARRAY);
        for (let i = 0; i < array.length; i++) this.#walk(array[i], depth + 1);
        this.#step(CLOSE);
        return;
      }
      case OPEN_OBJECT: {
        const object = value as Record<string, unknown>;
        const keys = packedKeys(object);
        if (keys === null) break;
        this.#step(OPEN_OBJECT);
        for (const key of keys) {
          this.#stepKey(key);
          this.#walk(object[key], depth + 1);
        }
        this.#step(CLOSE);
        return;
      }
      case STRING:
      case OPAQUE:
        break;
      default:
        this.#step(kind);
        return;
    }
    // a string or a value kept by reference: a position with a code
    this.#step(typeof value === 'string' ? STRING : OPAQUE);
    this.#leafValues[this.#leafCount++] = value;
  }

  /** The template of a shape seen for the first time, read off the tree that has it. */
  #newShape(tree: unknown): number {
    let strings = 0;
    let numbers = 0;
    const template = (value: unknown, depth: number): Template => {
      let kind = kindOf(value, depth);
      if (kind === OPEN_ARRAY) {
        const children = (value as unknown[]).map((child) => template(child, depth + 1));
        return { kind: 'array', children };
      }
      if (kind === OPEN_OBJECT) {
        const object = value as Record<string, unknown>;
        const keys = packedKeys(object);
        if (keys !== null)
          return { kind: 'object', keys, children: keys.map((key) => template(object[key], depth + 1)) };
        kind = OPAQUE;
      }
      if (kind === NUMBER) numbers++;
      return { kind: 'leaf', leaf: kind, column: kind === STRING || kind === OPAQUE ? strings++ : -1 };
    };
    const root = template(tree, 0);
    const columns = Array.from({ length: strings }, () => new StringColumn());
    this.#shapes.push({
      columns,
      numbers,
      build: compileBuilder(root, columns),
      match: compileMatcher(root),
    });
    return this.#shapes.length - 1;
  }

  #stringCode(column: StringColumn, value: string): number {
    if (column.unique || value.length > MAX_INTERNED_LENGTH) return this.#pooled(value);
    const known = column.ids.get(value);
    if (known !== undefined) {
      column.hits += 1;
      return known;
    }
    const misses = column.values.length;
    if (misses >= MAX_INTERNED_PER_COLUMN || (misses >= UNIQUE_AFTER_MISSES && misses > column.hits)) {
      column.unique = true;
      return this.#pooled(value);
    }
    const id = column.values.length;
    column.values.push(value);
    column.ids.set(value, id);
    return id;
  }

  /** The code of a string kept in the pool (by reference if it has a lone surrogate). */
  #pooled(value: string): number {
    let code = this.#pooledInTree.get(value);
    if (code !== undefined) return code;
    const pooled = this.#pool.tryAdd(value);
    code = pooled >= 0 ? -2 - 2 * pooled : this.#ref(value);
    this.#pooledInTree.set(value, code);
    return code;
  }

  #ref(value: unknown): number {
    this.#refs.push(value);
    return -1 - 2 * (this.#refs.length - 1);
  }

  #reserveCodes(n: number): void {
    if (this.#codeCount + n > this.#codes.length)
      this.#codes = grownTypedArray(this.#codes, Math.max(this.#codeCount + n, this.#codes.length * 2));
  }
}

/**
 * How a value is stored: a leaf kind, `OPEN_ARRAY`, `OPEN_OBJECT` (see {@link packedKeys}) or
 * `OPAQUE` (kept by reference). The one rule shared by the walk and by the shapes' templates.
 */
function kindOf(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'number':
      return NUMBER;
    case 'string':
      return STRING;
    case 'boolean':
      return value ? TRUE : FALSE;
    case 'undefined':
      return UNDEFINED;
    case 'object': {
      if (value === null) return NULL;
      if (depth >= MAX_PACKED_DEPTH) return OPAQUE;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (Array.isArray(value))
        return proto === Array.prototype && value.length <= MAX_PACKED_ARRAY ? OPEN_ARRAY : OPAQUE;
      return proto === Object.prototype ? OPEN_OBJECT : OPAQUE;
    }
    default:
      return OPAQUE;
  }
}

/** A plain object's keys when it is packed, or null when it has too many (then it is opaque). */
function packedKeys(object: Record<string, unknown>): string[] | null {
  const keys = Object.keys(object);
  return keys.length > MAX_PACKED_KEYS ? null : keys;
}

/** Whether the walk keeps `value` (found at `depth`) by reference: {@link kindOf}'s `OPAQUE`, or too many keys. */
function isOpaque(value: unknown, depth: number): boolean {
  const kind = kindOf(value, depth);
  return kind === OPAQUE || (kind === OPEN_OBJECT && packedKeys(value as Record<string, unknown>) === null);
}

/**
 * Compiles a shape's template into its {@link Matcher}: the walk's rules ({@link kindOf},
 * {@link packedKeys}) for exactly this structure. An object's keys are compared in `for…in` order
 * with the template's (no key array is made); `for…in` also lists inherited enumerable keys, so an
 * object whose prototype chain has any does not match and is walked instead, which reads own keys.
 */
function compileMatcher(root: Template): Matcher {
  const keyLists: (readonly string[])[] = [];
  const lines: string[] = [];
  let vars = 0;
  const fail = 'return false;';
  const emit = (template: Template, v: string, depth: number): void => {
    if (template.kind === 'object') {
      const list = keyLists.push(template.keys) - 1;
      lines.push(
        `if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v}) || P(${v}) !== OP) ${fail}`,
        `i = 0; for (k in ${v}) if (k !== KS[${list}][i++]) ${fail}`,
        `if (i !== ${template.keys.length}) ${fail}`,
      );
      template.keys.forEach((key, n) => {
        const child = `v${++vars}`;
        lines.push(`const ${child} = ${v}[${JSON.stringify(key)}];`);
        emit(template.children[n] as Template, child, depth + 1);
      });
      return;
    }
    if (template.kind === 'array') {
      lines.push(
        `if (!Array.isArray(${v}) || P(${v}) !== AP || ${v}.length !== ${template.children.length}) ${fail}`,
      );
      template.children.forEach((t, n) => {
        const child = `v${++vars}`;
        lines.push(`const ${child} = ${v}[${n}];`);
        emit(t, child, depth + 1);
      });
      return;
    }
    switch (template.leaf) {
      case NUMBER:
        lines.push(`if (typeof ${v} !== 'number') ${fail}`, `N[at++] = ${v};`);
        return;
      case STRING:
        lines.push(`if (typeof ${v} !== 'string') ${fail}`, `L[l++] = ${v};`);
        return;
      case OPAQUE:
        lines.push(`if (!opaque(${v}, ${depth})) ${fail}`, `L[l++] = ${v};`);
        return;
      case TRUE:
        lines.push(`if (${v} !== true) ${fail}`);
        return;
      case FALSE:
        lines.push(`if (${v} !== false) ${fail}`);
        return;
      case NULL:
        lines.push(`if (${v} !== null) ${fail}`);
        return;
      default:
        lines.push(`if (${v} !== undefined) ${fail}`);
    }
  };
  emit(root, 'v0', 0);
  const source = `return (v0, N, at, L) => {\nlet i = 0, k, l = 0;\n${lines.join('\n')}\nreturn true;\n};`;
  return new Function('KS', 'P', 'OP', 'AP', 'opaque', source)(
    keyLists,
    Object.getPrototypeOf,
    Object.prototype,
    Array.prototype,
    isOpaque,
  ) as Matcher;
}

/**
 * Compiles a shape's template into a function that rebuilds its trees with object and array
 * literals (one per shape, so every tree of a shape is built by the same monomorphic code; about
 * 5× faster than walking the template). Keys are written as JSON string literals; an own
 * `__proto__` key as a computed key, which defines a property instead of setting the prototype.
 */
function compileBuilder(root: Template, columns: readonly StringColumn[]): Builder {
  const expression = (template: Template): string => {
    switch (template.kind) {
      case 'object':
        return `{${template.keys
          .map((key, i) => {
            const name = JSON.stringify(key);
            return `${key === '__proto__' ? `[${name}]` : name}: ${expression(template.children[i] as Template)}`;
          })
          .join(', ')}}`;
      case 'array':
        return `[${template.children.map(expression).join(', ')}]`;
      default:
        switch (template.leaf) {
          case NUMBER:
            return 'N[n++]';
          case STRING:
            return `((k = K[c++]) >= 0 ? V${template.column}[k] : S(k))`;
          case OPAQUE:
            return 'S(K[c++])';
          case TRUE:
            return 'true';
          case FALSE:
            return 'false';
          case NULL:
            return 'null';
          default:
            return 'undefined';
        }
    }
  };
  const values = columns.map((_, i) => `const V${i} = columns[${i}].values;`).join('\n');
  const source = `${values}\nreturn (N, K, S, n, c) => { let k = 0; return ${expression(root)}; };`;
  return new Function('columns', source)(columns) as Builder;
}
