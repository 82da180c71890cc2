import type { EvidenceDescriptor } from '../../model/trial.js';
import type { TraceLoader } from '../trace-loader.js';
import { OtlpFileTraces } from './otlp-file-traces.js';
import { OTLPTraceHandle } from './otlp-trace-handle.js';

/**
 * An OTLP {@link TraceLoader} for many trials whose traces are refs into the same few files (a run
 * scored from a trace dump, then re-scored, stored or reported from its bundle): a descriptor with a
 * `ref` and `metadata.otlp_trace_ids` gets its traces out of an {@link OtlpFileTraces} of the file,
 * read once and kept while it is one of the last `keep` files used (default 2: trials come file
 * after file), instead of a handle that reads and decodes the whole file again for each trial
 * (quadratic in the dump's size). A file that cannot be read fails
 * every trial that needs it with the same error, without being read again. Other descriptors
 * (inline data, a file without trace ids) load as `OTLPTraceHandle.fromDescriptor` does. The cache
 * belongs to the loader: make one per run (no global state).
 *
 * @example
 * const otlp = sharedOtlpFileLoader();
 * const ev = new CandidateEvidence(row.evidence, { baseDir: dir, traceLoaders: { otlp } });
 */
export function sharedOtlpFileLoader(keep = 2): TraceLoader {
  const files = new Map<string, OtlpFileTraces | Error>();
  const fileTraces = (path: string): OtlpFileTraces => {
    let traces = files.get(path);
    if (traces === undefined) {
      try {
        traces = OtlpFileTraces.read(path);
      } catch (error) {
        traces = error instanceof Error ? error : new Error(String(error));
      }
      if (files.size >= keep) files.delete(files.keys().next().value as string);
      files.set(path, traces);
    } else {
      // most recently used last
      files.delete(path);
      files.set(path, traces);
    }
    if (traces instanceof Error) throw traces;
    return traces;
  };
  return (descriptor: EvidenceDescriptor, { resolveRef }) => {
    const ids = descriptor.metadata['otlp_trace_ids'];
    if (
      (descriptor.data !== null && descriptor.data !== undefined) ||
      descriptor.ref === null ||
      !Array.isArray(ids)
    )
      return OTLPTraceHandle.fromDescriptor(descriptor, resolveRef);
    return fileTraces(resolveRef(descriptor.ref)).handle(
      ids.filter((x): x is string => typeof x === 'string'),
    );
  };
}
