import { evidenceRefResolver } from '../../bundle/evidence-ref-resolver.js';
import { CandidateEvidence } from '../../evidence/candidate-evidence.js';
import { sharedOtlpFileLoader } from '../../evidence/otlp/shared-otlp-file-loader.js';
import type { EvidenceDescriptor } from '../../model/trial.js';
import type { StoreTrial } from './store-rows.js';

/**
 * The live evidence of a trial read from a bundle (refs as stored in `trials.jsonl`), for
 * `StoreRunInput.evidenceOf`: refs are resolved against the bundle with the SDK's rules
 * (`evidenceRefResolver`); a descriptor whose ref escapes the bundle is left out, so its trace is
 * never opened.
 *
 * @example
 * await writeRun(connection, { runId, tasks, trials, scores, evidenceOf: bundleEvidenceOf('runs/r1') });
 */
export function bundleEvidenceOf(bundleDir: string): (trial: StoreTrial) => CandidateEvidence | null {
  const resolve = evidenceRefResolver(bundleDir);
  // trials whose traces are refs into one dump: the dump is read once, not once per trial
  const otlp = sharedOtlpFileLoader();
  return (trial) => {
    const evidence = trial.evidence;
    if (evidence === null || evidence === undefined) return null;
    const descriptors: Record<string, EvidenceDescriptor> = {};
    for (const [key, d] of Object.entries(evidence.descriptors)) {
      const resolved = resolve(d.ref);
      if (!resolved.ok) continue;
      Object.defineProperty(descriptors, key, {
        value: { ...d, ref: resolved.ref },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return new CandidateEvidence(
      { ...evidence, descriptors },
      { baseDir: bundleDir, traceLoaders: { otlp } },
    );
  };
}
