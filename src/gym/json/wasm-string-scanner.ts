/**
 * A WebAssembly SIMD function `find(i, end)`: the index of the first byte in memory `[i, end)` that is
 * a quote, a backslash or a control character (< 0x20), or `end` when there is none. It tests 16 bytes
 * per step (`i8x16.eq` / `i8x16.lt_u`, `i8x16.bitmask`, `i32.ctz`) and may read up to 15 bytes past
 * `end`, which {@link WasmStringScanner.allocate} keeps inside the memory. Hand-assembled (no
 * toolchain); the text form:
 *
 *   (func (param $i i32) (param $end i32) (result i32) (local $m i32) (local $v v128)
 *     (loop $next
 *       (local.set $v (v128.load (local.get $i)))
 *       (local.tee $m (i8x16.bitmask (v128.or (v128.or
 *         (i8x16.eq (local.get $v) (v128.const i8x16 0x22 …)) (i8x16.eq (local.get $v) (v128.const i8x16 0x5c …)))
 *         (i8x16.lt_u (local.get $v) (v128.const i8x16 0x20 …)))))
 *       (if (then (local.set $m (i32.add (local.get $i) (i32.ctz (local.get $m))))
 *                 (return (select (local.get $m) (local.get $end) (i32.lt_u (local.get $m) (local.get $end))))))
 *       (br_if $next (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 16))) (local.get $end))))
 *     (local.get $end))
 */
const MODULE_BASE64 =
  'AGFzbQEAAAABBwFgAn9/AX8CCAEBZQFtAgABAwIBAAcFAQFzAAAKgQEBfwIBfwF7A0AgAP0AAAAhAyAD/QwiIiIiIiIiIiIiIiIiIiIi' +
  '/SMgA/0MXFxcXFxcXFxcXFxcXFxcXP0j/VAgA/0MICAgICAgICAgICAgICAgIP0m/VD9ZCICBEAgACACaGohAiACIAEgAiABSRsPCyAA' +
  'QRBqIgAgAUkNAAsgAQs=';

import { WasmJsonValidator } from './wasm-json-validator.js';

/** The part of the WebAssembly JS API used here (the project's TypeScript lib has no WebAssembly types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

const PAGE = 65536;
/** Bytes the vector loop may read past `end`. */
const SLACK = 16;
/** The validator's container stack, then the member name it watches for (at most {@link WATCH_MAX} bytes). */
const STACK = 256;
const WATCH_MAX = 64;

/**
 * {@link WasmJsonValidator} over a buffer from {@link WasmStringScanner.allocate}, with indices
 * relative to a view of it (`base` is the view's offset in the memory).
 */
export interface BufferValidator {
  validator: WasmJsonValidator;
  /** Memory address of the container stack (the watched name follows it at +256). */
  stack: number;
  /** The whole memory, to write the watched name. */
  memory: Uint8Array;
  /** The name now written after the stack (shared by every view of the memory). */
  watching: { name: Uint8Array | null };
  base: number;
}

let compiled: object | null | undefined;

function wasmModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm === undefined ? null : new wasm.Module(Buffer.from(MODULE_BASE64, 'base64'));
    } catch {
      compiled = null; // no WebAssembly SIMD here: callers use their JavaScript path
    }
  }
  return compiled;
}

/**
 * Byte buffers that live in a WebAssembly memory of their own, with the SIMD string scan above over
 * them. {@link allocate} gives such a buffer (or a plain one where WebAssembly SIMD is unavailable);
 * {@link finderOf} returns the scan for a view of one, with indices relative to the view.
 *
 * @example
 * const buf = WasmStringScanner.allocate(1 << 17);
 * buf.write('abc"', 0);
 * WasmStringScanner.finderOf(buf)?.(0, 4); // 3
 */
export class WasmStringScanner {
  /**
   * The scan of each buffer from {@link allocate}, with its instance and memory objects, held for as
   * long as the buffer lives (see `WasmJsonValidator.instance`).
   */
  private static readonly finders = new WeakMap<
    ArrayBufferLike,
    { find: (i: number, end: number) => number; instance: object; memory: object }
  >();
  private static readonly validators = new WeakMap<ArrayBufferLike, Omit<BufferValidator, 'base'>>();

  /** The longest member name {@link validatorOf}'s validator can watch for. */
  static readonly watchMax = WATCH_MAX;

  /** A buffer of `size` bytes in a fresh WebAssembly memory (a plain buffer without WebAssembly SIMD). */
  static allocate(size: number): Buffer {
    const module = wasmModule();
    if (module === null || wasm === undefined) return Buffer.allocUnsafe(size);
    const memory = new wasm.Memory({ initial: Math.ceil((size + SLACK + STACK + WATCH_MAX) / PAGE) });
    const instance = new wasm.Instance(module, { e: { m: memory } });
    WasmStringScanner.finders.set(memory.buffer, {
      find: instance.exports['s'] as (i: number, end: number) => number,
      instance,
      memory,
    });
    const validator = WasmJsonValidator.over(memory);
    if (validator !== null) {
      WasmStringScanner.validators.set(memory.buffer, {
        validator,
        stack: size + SLACK,
        memory: new Uint8Array(memory.buffer),
        watching: { name: null },
      });
    }
    return Buffer.from(memory.buffer, 0, size);
  }

  /** For a view of a buffer from {@link allocate}: its JSON validator (see {@link BufferValidator}); null otherwise. */
  static validatorOf(view: Uint8Array): BufferValidator | null {
    const v = WasmStringScanner.validators.get(view.buffer);
    // a literal, not `{ ...v, base }`: a spread gave every result a map of its own, and each new
    // one deoptimized the JSON cursor's fast skip that reads it (once per scanned range)
    return v === undefined
      ? null
      : {
          validator: v.validator,
          stack: v.stack,
          memory: v.memory,
          watching: v.watching,
          base: view.byteOffset,
        };
  }

  /**
   * For a view of a buffer from {@link allocate}: `find(i, end)` with `i`, `end` and the result
   * relative to the view (`end` must be within the view); null for any other array.
   */
  static finderOf(view: Uint8Array): ((i: number, end: number) => number) | null {
    const find = WasmStringScanner.finders.get(view.buffer)?.find;
    if (find === undefined) return null;
    const base = view.byteOffset;
    return base === 0 ? find : (i, end) => find(i + base, end + base) - base;
  }
}
