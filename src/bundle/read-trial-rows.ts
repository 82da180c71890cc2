import { join } from 'node:path';
import type { Trial } from '../model/trial.js';
import { BUNDLE_FILES } from './bundle-files.js';
import type { BundleIssue } from './bundle-read-error.js';
import { readJsonlRows, type RowBatch } from './read-jsonl-rows.js';
import { evidenceRefResolver } from './evidence-ref-resolver.js';
import { floatPathKey } from '../pycompat/float-path-key.js';
import { rowFastChecks } from './row-fast-checks.js';
import { rowSchemas } from './row-schemas.js';

/** Options of {@link readTrialRows}. */
export interface ReadTrialRowsOptions {
  /** Receives a cut-off last line instead of failing (see `readJsonlRows`). */
  onTruncatedLine?: (issue: BundleIssue) => void;
  /**
   * Resolve evidence refs against the bundle and refuse escapes (default true). Readers that never
   * open evidence (the error rollup of `summarize`) skip it and get the refs as stored.
   */
  resolveRefs?: boolean;
  /** Register rows in `rowSources` for writing them back (default true). */
  register?: boolean;
}

/**
 * Streams `trials.jsonl` of a bundle as batches of validated trials (spec §4) with evidence refs
 * resolved against the bundle (see `resolveEvidenceRef`); a ref that escapes the bundle is an error
 * naming the line and the descriptor.
 *
 * @example
 * for await (const batch of readTrialRows(dir)) for (const trial of batch.rows) console.log(trial.id);
 */
export function readTrialRows(
  dir: string,
  options: ReadTrialRowsOptions = {},
): AsyncGenerator<RowBatch<Trial>> {
  const name = BUNDLE_FILES.trials;
  const resolver = evidenceRefResolver(dir);
  const { resolveRefs, ...rowOptions } = options;
  return readJsonlRows(join(dir, name), rowSchemas.trial, {
    displayName: name,
    fastCheck: rowFastChecks.trial,
    ...rowOptions,
    remapFloatPaths: wrapBareEvidencePaths,
    check: (trial, line) => {
      if (resolveRefs === false) return null;
      const descriptors = trial.evidence?.descriptors;
      if (descriptors === undefined) return null;
      for (const [key, d] of Object.entries(descriptors)) {
        const resolved = resolver(d.ref);
        if (!resolved.ok) {
          return {
            code: 'ref_escape',
            file: name,
            line,
            path: ['evidence', 'descriptors', key, 'ref'],
            message: resolved.message,
          };
        }
        d.ref = resolved.ref;
      }
      return null;
    },
  });
}

/** A bare name → descriptor map is wrapped as `{descriptors, metadata}`: move its float paths along. */
function wrapBareEvidencePaths(raw: unknown, paths: Set<string>): Set<string> {
  const evidence = (raw as { evidence?: unknown } | null)?.evidence;
  if (evidence === null || typeof evidence !== 'object' || 'descriptors' in evidence) return paths;
  const prefix = floatPathKey(['evidence', '']);
  const out = new Set<string>();
  for (const p of paths)
    out.add(p.startsWith(prefix) ? prefix + floatPathKey(['descriptors', p.slice(prefix.length)]) : p);
  return out;
}
