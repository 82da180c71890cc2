import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowFastChecks } from '../../src/bundle/row-fast-checks.js';
import { rowSchemas } from '../../src/bundle/row-schemas.js';

const KINDS = ['score', 'trial'] as const;
const FILES = { score: 'scores.jsonl', trial: 'trials.jsonl' };
const BUNDLES = ['examples/sparse-run', 'test/fixtures/bundle/sdk-sparse'];

function rowsOf(kind: (typeof KINDS)[number]): Record<string, unknown>[] {
  return BUNDLES.flatMap((dir) =>
    readFileSync(`${dir}/${FILES[kind]}`, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  );
}

/** Every nested object of `v` with its keys, so a mutation can reach any depth. */
function objects(v: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (typeof v === 'object' && v !== null) {
    if (!Array.isArray(v)) out.push(v as Record<string, unknown>);
    for (const x of Object.values(v)) objects(x, out);
  }
  return out;
}

const replacement = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(''),
  fc.string(),
  fc.double(),
  fc.integer({ min: -5, max: 5 }),
  fc.boolean(),
  fc.constant({}),
  fc.constant([]),
  fc.constantFrom('completed', 'failed', 'error', 'mean', 'single'),
);

describe('the exact-shape row checks accept only rows the zod schemas accept', () => {
  for (const kind of KINDS) {
    const rows = rowsOf(kind);

    it(`${kind} rows of the bundled fixtures pass both`, () => {
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(rowSchemas[kind].safeParse(row).success).toBe(true);
        expect(rowFastChecks[kind](row)).toBe(true);
      }
    });

    it(`${kind} rows with one value replaced or removed, at any depth`, () => {
      fc.assert(
        fc.property(fc.nat(), fc.nat(), replacement, (r, o, value) => {
          const row = structuredClone(rows[r % rows.length]) as Record<string, unknown>;
          const targets = objects(row);
          const target = targets[o % targets.length] as Record<string, unknown>;
          const keys = Object.keys(target);
          if (keys.length === 0) return;
          const key = keys[(r + o) % keys.length] as string;
          if (value === undefined) delete target[key];
          else target[key] = value;
          if (rowFastChecks[kind](row)) expect(rowSchemas[kind].safeParse(row).success).toBe(true);
        }),
        { numRuns: 2000, seed: 7 },
      );
    });
  }
});
