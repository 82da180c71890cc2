import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { WasmStringScanner } from '../../../src/gym/json/wasm-string-scanner.js';

// V8's own answer to "do these objects share a hidden class?" (natives syntax, enabled for the
// functions compiled after this line only)
setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

describe('WasmStringScanner.validatorOf', () => {
  it('gives the validators of different buffers and views one hidden class', () => {
    // the JSON cursor's fast skip reads these objects on every call; with a map per object (as an
    // object spread gave) each scanned range deoptimized it and V8 compiled it again
    const a = WasmStringScanner.validatorOf(WasmStringScanner.allocate(1 << 12));
    const whole = WasmStringScanner.allocate(1 << 12);
    const b = WasmStringScanner.validatorOf(whole);
    const view = WasmStringScanner.validatorOf(whole.subarray(100, 200));
    expect(a).not.toBeNull();
    expect(view?.base).toBe(100);
    expect(b?.base).toBe(0);
    expect(view?.validator).toBe(b?.validator);
    expect(haveSameMap(a as object, b as object)).toBe(true);
    expect(haveSameMap(b as object, view as object)).toBe(true);
    // and still after many calls (the spread's results only parted once its IC had warmed up)
    let differing = 0;
    for (let i = 0; i < 20_000; i++) {
      const v = WasmStringScanner.validatorOf(whole.subarray(i % 1000));
      if (!haveSameMap(a as object, v as object)) differing++;
    }
    expect(differing).toBe(0);
  });

  it('is null for a buffer not allocated by it', () => {
    expect(WasmStringScanner.validatorOf(Buffer.alloc(16))).toBeNull();
  });
});
