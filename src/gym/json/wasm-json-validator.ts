/**
 * A JSON validator in WebAssembly (with the SIMD string scan of `WasmStringScanner`), assembled at
 * load time from the text below by the small assembler at the end of this file (no toolchain).
 * `v(i, end, max, stack, wlen)` skips the JSON value at `i` (after whitespace) exactly as `JsonCursor`'s fast skip does — strings
 * with their escapes, numbers by the JSON grammar, literals, containers up to `max` deep — and returns
 * the index after it, or -1 for anything it does not accept (the caller then takes its strict path).
 * `ws()` then says whether whitespace was skipped. With `wlen > 0`, the member names of the outermost
 * object are compared with the `wlen` bytes at `stack + 256`: `at()` gives the index of the value of
 * the one that matches (-1: none), and a second match or an escaped name makes `v` return -1.
 * The caller keeps `max` bytes at `stack` and the name after them inside the memory; strings may be
 * read up to 15 bytes past `end`.
 *
 * Flat WebAssembly text: `$name` labels are resolved to depths; `v128.splat8 X` is
 * `v128.const i8x16 X X … X` (16 lanes); `skipws L` calls `ws` on local L (the index; local 1 is the
 * end) only when the byte there may be whitespace (below 0x21; the byte at the end is in the memory).
 * Globals: 0 whitespace seen, 1 escape seen, 2 match index.
 */
/**
 * Body text leaving the bitmask of the 16 bytes in v128 local `v` that stop a plain run of string
 * bytes: a quote, a backslash or a control character (shared by `find` and the inlined loop of `str`).
 */
function stringStops(v: number): string {
  return `
    local.get ${v}  v128.splat8 0x22  i8x16.eq
    local.get ${v}  v128.splat8 0x5c  i8x16.eq  v128.or
    local.get ${v}  v128.splat8 0x20  i8x16.lt_u  v128.or
    i8x16.bitmask`;
}

/**
 * Body text for a 4-byte literal (`true`, `null`) inside `v`: when the byte in local 5 is the word's
 * first, the word must be the 4 bytes at local 0 (within local 1), which are skipped (branch to
 * `$after`); a mismatch returns -1.
 */
function literal4(word: string): string {
  const le = [...word].reduceRight((acc, ch) => acc * 256 + ch.charCodeAt(0), 0);
  return `
    local.get 5  i32.const ${word.charCodeAt(0)}  i32.eq
    if
      local.get 0  i32.const 3  i32.add  local.get 1  i32.ge_u
      if  i32.const -1  return  end
      local.get 0  i32.load  i32.const ${le}  i32.ne
      if  i32.const -1  return  end
      local.get 0  i32.const 4  i32.add  local.set 0
      br $after
    end`;
}

const FUNCS: { name: string; params: number; results: number; locals: string; body: string }[] = [
  {
    // find(i, end): the first quote, backslash or control byte in [i, end), or end (16 bytes a step)
    name: 'find',
    params: 2,
    results: 1,
    locals: 'i32 v128',
    body: `
      loop $next
        local.get 0  v128.load  local.set 3
        ${stringStops(3)}  local.tee 2
        if
          local.get 0  local.get 2  i32.ctz  i32.add  local.tee 2
          local.get 1  local.get 2  local.get 1  i32.lt_u  select  return
        end
        local.get 0  i32.const 16  i32.add  local.tee 0  local.get 1  i32.lt_u  br_if $next
      end
      local.get 1`,
  },
  {
    // ws(i, end): the index of the first non-whitespace byte at or after i (or end)
    name: 'ws',
    params: 2,
    results: 1,
    locals: 'i32',
    body: `
      block $done
        loop $next
          local.get 0  local.get 1  i32.ge_u  br_if $done
          local.get 0  i32.load8_u  local.tee 2  i32.const 0x20  i32.eq
          local.get 2  i32.const 0x0a  i32.eq  i32.or
          local.get 2  i32.const 0x0d  i32.eq  i32.or
          local.get 2  i32.const 0x09  i32.eq  i32.or
          i32.eqz  br_if $done
          i32.const 1  global.set 0
          local.get 0  i32.const 1  i32.add  local.set 0
          br $next
        end
      end
      local.get 0`,
  },
  {
    // hex(c): whether c is a hexadecimal digit
    name: 'hex',
    params: 1,
    results: 1,
    locals: '',
    body: `
      local.get 0  i32.const 0x30  i32.sub  i32.const 10  i32.lt_u
      local.get 0  i32.const 0x20  i32.or  i32.const 0x61  i32.sub  i32.const 6  i32.lt_u  i32.or`,
  },
  {
    // str(i, end), after an opening quote: the index after the closing quote, or -1
    name: 'str',
    params: 2,
    results: 1,
    locals: 'i32 i32 v128',
    body: `
      loop $next
        block $found
          loop $scan
            local.get 0  v128.load  local.set 4
            ${stringStops(4)}  local.tee 2
            if
              local.get 0  local.get 2  i32.ctz  i32.add  local.set 2
              br $found
            end
            local.get 0  i32.const 16  i32.add  local.tee 0  local.get 1  i32.lt_u  br_if $scan
          end
          i32.const -1  return
        end
        local.get 2  local.get 1  i32.ge_u
        if  i32.const -1  return  end
        local.get 2  i32.load8_u  local.tee 3  i32.const 0x22  i32.eq
        if  local.get 2  i32.const 1  i32.add  return  end
        local.get 3  i32.const 0x5c  i32.ne
        if  i32.const -1  return  end
        i32.const 1  global.set 1
        local.get 2  i32.const 1  i32.add  local.get 1  i32.ge_u
        if  i32.const -1  return  end
        local.get 2  i32.load8_u offset=1  local.tee 3  i32.const 0x75  i32.eq
        if
          local.get 2  i32.const 5  i32.add  local.get 1  i32.ge_u
          if  i32.const -1  return  end
          local.get 2  i32.load8_u offset=2  call $hex
          local.get 2  i32.load8_u offset=3  call $hex  i32.and
          local.get 2  i32.load8_u offset=4  call $hex  i32.and
          local.get 2  i32.load8_u offset=5  call $hex  i32.and
          i32.eqz
          if  i32.const -1  return  end
          local.get 2  i32.const 6  i32.add  local.set 0
        else
          local.get 3  i32.const 0x22  i32.eq
          local.get 3  i32.const 0x5c  i32.eq  i32.or
          local.get 3  i32.const 0x2f  i32.eq  i32.or
          local.get 3  i32.const 0x62  i32.eq  i32.or
          local.get 3  i32.const 0x66  i32.eq  i32.or
          local.get 3  i32.const 0x6e  i32.eq  i32.or
          local.get 3  i32.const 0x72  i32.eq  i32.or
          local.get 3  i32.const 0x74  i32.eq  i32.or
          i32.eqz
          if  i32.const -1  return  end
          local.get 2  i32.const 2  i32.add  local.set 0
        end
        br $next
      end
      i32.const -1`,
  },
  {
    // digits(i, end): the index after the decimal digits at i
    name: 'digits',
    params: 2,
    results: 1,
    locals: '',
    body: `
      block $done
        loop $next
          local.get 0  local.get 1  i32.ge_u  br_if $done
          local.get 0  i32.load8_u  i32.const 0x30  i32.sub  i32.const 10  i32.ge_u  br_if $done
          local.get 0  i32.const 1  i32.add  local.set 0
          br $next
        end
      end
      local.get 0`,
  },
  {
    // num(i, end), at a number's first byte: the index after it (JSON grammar), or -1
    name: 'num',
    params: 2,
    results: 1,
    locals: 'i32 i32',
    body: `
      local.get 0  i32.load8_u  i32.const 0x2d  i32.eq
      if  local.get 0  i32.const 1  i32.add  local.set 0  end
      local.get 0  local.get 1  i32.ge_u
      if  i32.const -1  return  end
      local.get 0  i32.load8_u  local.tee 2  i32.const 0x30  i32.eq
      if
        local.get 0  i32.const 1  i32.add  local.set 0
      else
        local.get 2  i32.const 0x31  i32.sub  i32.const 9  i32.ge_u
        if  i32.const -1  return  end
        local.get 0  i32.const 1  i32.add  local.get 1  call $digits  local.set 0
      end
      local.get 0  local.get 1  i32.lt_u
      if
        local.get 0  i32.load8_u  i32.const 0x2e  i32.eq
        if
          local.get 0  i32.const 1  i32.add  local.tee 3  local.get 1  call $digits  local.tee 0
          local.get 3  i32.eq
          if  i32.const -1  return  end
        end
      end
      local.get 0  local.get 1  i32.lt_u
      if
        local.get 0  i32.load8_u  i32.const 0x20  i32.or  i32.const 0x65  i32.eq
        if
          local.get 0  i32.const 1  i32.add  local.set 0
          local.get 0  local.get 1  i32.lt_u
          if
            local.get 0  i32.load8_u  local.tee 2  i32.const 0x2b  i32.eq
            local.get 2  i32.const 0x2d  i32.eq  i32.or
            if  local.get 0  i32.const 1  i32.add  local.set 0  end
          end
          local.get 0  local.get 1  call $digits  local.tee 3  local.get 0  i32.eq
          if  i32.const -1  return  end
          local.get 3  local.set 0
        end
      end
      local.get 0`,
  },
  {
    // v(i, end, max, stack, wlen): see the comment above. Locals: 5 byte, 6 depth, 7 expecting a key,
    // 8 end of a key, 9 closer, 10 start of a key, 11 compare index.
    name: 'v',
    params: 5,
    results: 1,
    locals: 'i32 i32 i32 i32 i32 i32 i32',
    body: `
      i32.const 0  global.set 0
      i32.const -1  global.set 2
      loop $value
        skipws 0  local.get 0  local.get 1  i32.ge_u
        if  i32.const -1  return  end
        local.get 0  i32.load8_u  local.set 5
        local.get 7
        if
          local.get 5  i32.const 0x22  i32.ne
          if  i32.const -1  return  end
          i32.const 0  global.set 1
          local.get 0  i32.const 1  i32.add  local.tee 10  local.get 1  call $str  local.tee 8
          i32.const 0  i32.lt_s
          if  i32.const -1  return  end
          local.get 8  local.set 0  skipws 0  local.get 0  local.get 1  i32.ge_u
          if  i32.const -1  return  end
          local.get 0  i32.load8_u  i32.const 0x3a  i32.ne
          if  i32.const -1  return  end
          local.get 0  i32.const 1  i32.add  local.set 0
          local.get 4  i32.const 0  i32.ne  local.get 6  i32.const 1  i32.eq  i32.and
          if
            global.get 1
            if  i32.const -1  return  end
            local.get 8  local.get 10  i32.sub  i32.const 1  i32.sub  local.get 4  i32.eq
            if
              i32.const 0  local.set 11
              block $differ
                loop $cmp
                  local.get 11  local.get 4  i32.lt_u
                  if
                    local.get 10  local.get 11  i32.add  i32.load8_u
                    local.get 3  local.get 11  i32.add  i32.load8_u offset=256
                    i32.ne  br_if $differ
                    local.get 11  i32.const 1  i32.add  local.set 11
                    br $cmp
                  end
                end
                global.get 2  i32.const 0  i32.ge_s
                if  i32.const -1  return  end
                local.get 0  global.set 2
              end
            end
          end
          i32.const 0  local.set 7
          br $value
        end
        block $after
          local.get 5  i32.const 0x22  i32.eq
          if
            local.get 0  i32.const 1  i32.add  local.get 1  call $str  local.tee 0  i32.const 0  i32.lt_s
            if  i32.const -1  return  end
            br $after
          end
          local.get 5  i32.const 0x7b  i32.eq  local.get 5  i32.const 0x5b  i32.eq  i32.or
          if
            local.get 6  local.get 2  i32.ge_s
            if  i32.const -1  return  end
            local.get 5  i32.const 2  i32.add  local.set 9
            local.get 0  i32.const 1  i32.add  local.set 0  skipws 0  local.get 0  local.get 1  i32.ge_u
            if  i32.const -1  return  end
            local.get 0  i32.load8_u  local.get 9  i32.eq
            if  local.get 0  i32.const 1  i32.add  local.set 0  br $after  end
            local.get 3  local.get 6  i32.add  local.get 9  i32.store8
            local.get 6  i32.const 1  i32.add  local.set 6
            local.get 9  i32.const 0x7d  i32.eq  local.set 7
            br $value
          end
          local.get 5  i32.const 0x2d  i32.eq  local.get 5  i32.const 0x30  i32.sub  i32.const 10  i32.lt_u  i32.or
          if
            local.get 0  local.get 1  call $num  local.tee 0  i32.const 0  i32.lt_s
            if  i32.const -1  return  end
            br $after
          end
          ${literal4('true')}
          ${literal4('null')}
          local.get 5  i32.const 0x66  i32.eq
          if
            local.get 0  i32.const 4  i32.add  local.get 1  i32.ge_u
            if  i32.const -1  return  end
            local.get 0  i32.load  i32.const 0x736c6166  i32.ne
            if  i32.const -1  return  end
            local.get 0  i32.load8_u offset=4  i32.const 0x65  i32.ne
            if  i32.const -1  return  end
            local.get 0  i32.const 5  i32.add  local.set 0
            br $after
          end
          i32.const -1  return
        end
        loop $close
          local.get 6  i32.eqz
          if  local.get 0  return  end
          skipws 0  local.get 0  local.get 1  i32.ge_u
          if  i32.const -1  return  end
          local.get 0  i32.load8_u  local.tee 5
          local.get 3  local.get 6  i32.add  i32.const 1  i32.sub  i32.load8_u  local.tee 9
          i32.eq
          if
            local.get 0  i32.const 1  i32.add  local.set 0
            local.get 6  i32.const 1  i32.sub  local.set 6
            br $close
          end
          local.get 5  i32.const 0x2c  i32.ne
          if  i32.const -1  return  end
          local.get 0  i32.const 1  i32.add  local.set 0
          local.get 9  i32.const 0x7d  i32.eq  local.set 7
          br $value
        end
      end
      i32.const -1`,
  },
  { name: 'ws_seen', params: 0, results: 1, locals: '', body: 'global.get 0' },
  { name: 'at', params: 0, results: 1, locals: '', body: 'global.get 2' },
];

/** Opcodes without immediates. */
const OPS: Record<string, number[]> = {
  else: [0x05],
  end: [0x0b],
  return: [0x0f],
  select: [0x1b],
  'i32.eqz': [0x45],
  'i32.eq': [0x46],
  'i32.ne': [0x47],
  'i32.lt_s': [0x48],
  'i32.lt_u': [0x49],
  'i32.ge_s': [0x4e],
  'i32.ge_u': [0x4f],
  'i32.ctz': [0x68],
  'i32.add': [0x6a],
  'i32.sub': [0x6b],
  'i32.and': [0x71],
  'i32.or': [0x72],
  'i8x16.eq': [0xfd, 0x23],
  'i8x16.lt_u': [0xfd, 0x26],
  'v128.or': [0xfd, 0x50],
  'i8x16.bitmask': [0xfd, 0x64],
};

/** Memory access opcodes (prefix bytes, alignment exponent). */
const MEM_OPS: Record<string, [number[], number]> = {
  'i32.load': [[0x28], 0],
  'i32.load8_u': [[0x2d], 0],
  'i32.store8': [[0x3a], 0],
  'v128.load': [[0xfd, 0x00], 0],
};

const VALTYPE: Record<string, number> = { i32: 0x7f, v128: 0x7b };

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'latin1')];

/** Encodes one function body of the flat text. */
function assembleBody(body: string, funcIndex: Map<string, number>): number[] {
  const expanded = body.replace(
    /skipws (\d+)/g,
    'local.get $1  i32.load8_u  i32.const 0x21  i32.lt_u  if  local.get $1  local.get 1  call $ws  local.set $1  end',
  );
  const tokens = expanded.split(/\s+/).filter((t) => t !== '');
  const out: number[] = [];
  const labels: (string | null)[] = [];
  const depthOf = (label: string): number => {
    const at = labels.lastIndexOf(label);
    if (at < 0) throw new Error(`unknown label ${label}`);
    return labels.length - 1 - at;
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as string;
    const arg = (): string => tokens[++k] as string;
    if (t === 'block' || t === 'loop') {
      out.push(t === 'block' ? 0x02 : 0x03, 0x40);
      labels.push(arg());
    } else if (t === 'if') {
      out.push(0x04, 0x40);
      labels.push(null);
    } else if (t === 'end') {
      out.push(0x0b);
      labels.pop();
    } else if (t === 'br' || t === 'br_if') out.push(t === 'br' ? 0x0c : 0x0d, ...uleb(depthOf(arg())));
    else if (t === 'call') out.push(0x10, ...uleb(funcIndex.get(arg().slice(1)) as number));
    else if (t.startsWith('local.') || t.startsWith('global.')) {
      const op = {
        'local.get': 0x20,
        'local.set': 0x21,
        'local.tee': 0x22,
        'global.get': 0x23,
        'global.set': 0x24,
      }[t];
      if (op === undefined) throw new Error(`unknown op ${t}`);
      out.push(op, ...uleb(Number(arg())));
    } else if (t === 'i32.const') out.push(0x41, ...sleb(Number(arg())));
    else if (t === 'v128.splat8') out.push(0xfd, 0x0c, ...new Array<number>(16).fill(Number(arg())));
    else if (MEM_OPS[t] !== undefined) {
      const [op, align] = MEM_OPS[t];
      let offset = 0;
      if (tokens[k + 1]?.startsWith('offset=')) offset = Number(arg().slice(7));
      out.push(...op, align, ...uleb(offset));
    } else if (OPS[t] !== undefined) out.push(...OPS[t]);
    else throw new Error(`unknown op ${t}`);
  }
  return [...out, 0x0b];
}

/** The module's bytes: imports memory `e.m`, exports `v`, `ws_seen` and `at`. */
function assemble(): Uint8Array {
  const funcIndex = new Map(FUNCS.map((f, i) => [f.name, i]));
  const types: number[][] = [];
  const typeOf = FUNCS.map((f) => {
    const t = [0x60, ...vec(new Array(f.params).fill([0x7f])), ...vec(new Array(f.results).fill([0x7f]))];
    let at = types.findIndex((x) => x.join() === t.join());
    if (at < 0) at = types.push(t) - 1;
    return at;
  });
  const code = FUNCS.map((f) => {
    const locals = f.locals
      .split(' ')
      .filter((l) => l !== '')
      .map((l) => [1, VALTYPE[l] as number]);
    const body = [...vec(locals), ...assembleBody(f.body, funcIndex)];
    return [...uleb(body.length), ...body];
  });
  const exported = ['v', 'ws_seen', 'at'].map((n) => [...name(n), 0x00, ...uleb(funcIndex.get(n) as number)]);
  const global = [0x7f, 0x01, 0x41, 0x00, 0x0b]; // mutable i32 = 0
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(2, vec([[...name('e'), ...name('m'), 0x02, 0x00, 0x01]])),
    ...section(3, vec(typeOf.map((t) => uleb(t)))),
    ...section(6, vec([global, global, global])),
    ...section(7, vec(exported)),
    ...section(10, vec(code)),
  ]);
}

/** The part of the WebAssembly JS API used here. */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

/**
 * The validator described at the top of this file, instantiated over a WebAssembly memory (see
 * `WasmStringScanner.allocate`, which makes one per buffer). `skip` takes and returns indices of the
 * memory; `ws()` and `at()` report on the last `skip`.
 *
 * @example
 * const validator = WasmJsonValidator.over(memory); // null without WebAssembly SIMD
 * validator?.skip(0, 8, 256, stackAddress, 0);
 */
export class WasmJsonValidator {
  private constructor(
    /**
     * Held so that it lives as long as its exports are used: optimized code that calls them inline
     * depends on the instance object, and when a garbage collection found it unreachable (its exports
     * alone do not keep it) every scanning function was deoptimized and compiled again (~25 of them,
     * tens of ms of compiling each, once or more a run; --trace-deopt: "weak objects").
     */
    readonly instance: object,
    /** `v(i, end, max, stack, wlen)`: the index after the value at `i`, or -1. */
    readonly skip: (i: number, end: number, max: number, stack: number, wlen: number) => number,
    /** Whether the last skip crossed whitespace between tokens. */
    readonly ws: () => number,
    /** The value index of the watched member found by the last skip, or -1. */
    readonly at: () => number,
  ) {}

  /** A validator over `memory` (which imports it as `e.m`), or null where WebAssembly SIMD is unavailable. */
  static over(memory: object): WasmJsonValidator | null {
    if (compiled === undefined) {
      try {
        compiled = wasm === undefined ? null : new wasm.Module(assemble());
      } catch {
        compiled = null;
      }
    }
    if (compiled === null || wasm === undefined) return null;
    const instance = new wasm.Instance(compiled, { e: { m: memory } });
    const e = instance.exports;
    return new WasmJsonValidator(
      instance,
      e['v'] as WasmJsonValidator['skip'],
      e['ws_seen'] as () => number,
      e['at'] as () => number,
    );
  }
}
