import { isAbsolute, resolve } from 'node:path';
import type { JsonObject } from '../model/json-value.js';
import type { EvidenceDescriptor, EvidenceRecord } from '../model/trial.js';
import { pyRepr } from '../pycompat/py-repr.js';
import { ATIFTraceHandle, type AtifViewOptions } from './atif/atif-trace-handle.js';
import { EvidenceKeyError } from './evidence-key-error.js';
import { EvidenceValueError } from './evidence-value-error.js';
import { FilesystemHandle } from './filesystem-handle.js';
import { LogsHandle } from './logs-handle.js';
import type { TraceHandle } from './trace-handle.js';
import type { TraceLoader } from './trace-loader.js';

/** Options of `CandidateEvidence`. */
export interface CandidateEvidenceOptions {
  /** Directory that relative `ref`s resolve against (a bundle or job dir); default `process.cwd()`. */
  baseDir?: string;
  /** Loaders for trace formats other than ATIF (default for `otlp`: `OTLPTraceHandle`). */
  traceLoaders?: Record<string, TraceLoader>;
  /** Options of the ATIF handles this evidence creates (e.g. `includeSubagents`). */
  atif?: AtifViewOptions;
}

/**
 * A trial's named evidence (spec §5): descriptors by name plus live handles, each created once per
 * resolved key and cached. Lookup errors are the SDK's: `EvidenceKeyError` (KeyError) and
 * `EvidenceValueError` (ValueError) with the same message texts.
 *
 * @example
 * const ev = new CandidateEvidence(trial.evidence!, { baseDir: bundleDir });
 * const atif = await ev.trace('trace', 'atif'); // ATIFTraceHandle, or EvidenceKeyError
 * const calls = atif.normalizedToolCalls();
 */
export class CandidateEvidence {
  readonly #descriptors: Record<string, EvidenceDescriptor>;
  readonly #metadata: JsonObject;
  readonly #baseDir: string;
  readonly #loaders: Record<string, TraceLoader>;
  readonly #atifOptions: AtifViewOptions;
  readonly #traces = new Map<string, TraceHandle | Promise<TraceHandle>>();
  #filesystems: Map<string, FilesystemHandle> | null = null;
  #logs: Map<string, LogsHandle> | null = null;

  /**
   * @param record `{descriptors, metadata}`, or (as the SDK accepts) a bare name → descriptor map.
   * @throws EvidenceValueError when a descriptor has neither `ref` nor `data`.
   */
  constructor(
    record: EvidenceRecord | Record<string, EvidenceDescriptor>,
    options: CandidateEvidenceOptions = {},
  ) {
    const isRecord = 'descriptors' in record || 'metadata' in record;
    const descriptors = isRecord ? ((record as EvidenceRecord).descriptors ?? {}) : record;
    this.#descriptors = {};
    for (const [name, d] of Object.entries(descriptors as Record<string, EvidenceDescriptor>)) {
      this.#descriptors[name] = checkDescriptor(d);
    }
    this.#metadata = isRecord ? ((record as EvidenceRecord).metadata ?? {}) : {};
    this.#baseDir = options.baseDir ?? process.cwd();
    this.#loaders = options.traceLoaders ?? {};
    this.#atifOptions = options.atif ?? {};
  }

  /** Evidence-level metadata. */
  get metadata(): JsonObject {
    return this.#metadata;
  }

  /** The directory relative refs resolve against. */
  get baseDir(): string {
    return this.#baseDir;
  }

  /** Names of all descriptors, or of those of one `kind`, in insertion order. */
  names(kind?: string): string[] {
    const names = Object.keys(this.#descriptors);
    return kind === undefined ? names : names.filter((n) => this.#descriptors[n]?.kind === kind);
  }

  /** The descriptor under `name`, or null; never loads anything. */
  get(name: string): EvidenceDescriptor | null {
    return Object.hasOwn(this.#descriptors, name) ? (this.#descriptors[name] ?? null) : null;
  }

  /** The descriptor under `name`; `EvidenceKeyError` if absent, `EvidenceValueError` if of another kind. */
  require(name: string, kind?: string): EvidenceDescriptor {
    const d = this.get(name);
    if (d === null) throw new EvidenceKeyError(`missing evidence descriptor ${pyRepr(name)}`, name);
    if (kind !== undefined && d.kind !== kind) {
      throw new EvidenceValueError(
        `evidence descriptor ${pyRepr(name)} has kind ${pyRepr(d.kind)}, expected ${pyRepr(kind)}`,
      );
    }
    return d;
  }

  /**
   * A trace handle, cached per resolved key. Without `format`: the descriptor under `name` decides
   * (format null or `atif` → ATIF, `otlp` → OTLP, else `EvidenceValueError`). With `format` F: the first
   * of `name`, `name:F` whose declared format (null counts as `atif`) is F; otherwise
   * `EvidenceKeyError` "missing evidence descriptor 'trace' in format 'F'". A key suffix alone never
   * qualifies a descriptor.
   */
  trace(name?: string, format?: undefined): Promise<TraceHandle>;
  trace(name: string | undefined, format: 'atif'): Promise<ATIFTraceHandle>;
  trace(name: string | undefined, format: 'otlp'): Promise<TraceHandle & { readonly format: 'otlp' }>;
  trace(name?: string, format?: string): Promise<TraceHandle>;
  async trace(name = 'trace', format?: string): Promise<TraceHandle> {
    return this.#handle(name, format);
  }

  /**
   * Synchronous `trace()` for callers that cannot await (the handle itself still loads lazily). Fails
   * with `EvidenceValueError` only while an asynchronous loader is still building the handle.
   */
  traceSync(name = 'trace', format?: string): TraceHandle {
    const handle = this.#handle(name, format);
    if (handle instanceof Promise) {
      throw new EvidenceValueError(`trace evidence ${pyRepr(name)} is still loading; use trace()`);
    }
    return handle;
  }

  /** A filesystem handle for a `filesystem` descriptor with a local ref (cached). */
  async filesystem(name: string): Promise<FilesystemHandle> {
    const cached = this.#filesystems?.get(name);
    if (cached !== undefined) return cached;
    const d = this.require(name, 'filesystem');
    if (d.ref === null) {
      throw new EvidenceValueError(`filesystem evidence descriptor ${pyRepr(name)} requires a local ref`);
    }
    const handle = new FilesystemHandle(resolveLocalRef(d.ref, this.#baseDir));
    (this.#filesystems ??= new Map()).set(name, handle);
    return handle;
  }

  /** A logs handle for a `logs` descriptor with a local ref (cached). */
  async logs(name = 'logs'): Promise<LogsHandle> {
    const cached = this.#logs?.get(name);
    if (cached !== undefined) return cached;
    const d = this.require(name, 'logs');
    if (d.ref === null) {
      throw new EvidenceValueError(`logs evidence descriptor ${pyRepr(name)} requires a local ref`);
    }
    const handle = new LogsHandle(resolveLocalRef(d.ref, this.#baseDir));
    (this.#logs ??= new Map()).set(name, handle);
    return handle;
  }

  /**
   * Registers `descriptor` under `name` together with a live trace handle (a source hands over trace
   * data it already holds in memory, e.g. grouped OTLP spans). Replaces any previous entry.
   */
  attach(name: string, descriptor: EvidenceDescriptor, handle: TraceHandle): this {
    this.#descriptors[name] = checkDescriptor(descriptor);
    this.#traces.set(name, handle);
    return this;
  }

  /** The serialisable record (for `trials.jsonl`): descriptors and metadata, handles left out. */
  toRecord(): EvidenceRecord {
    return structuredClone({ descriptors: this.#descriptors, metadata: this.#metadata });
  }

  #handle(name: string, format: string | undefined): TraceHandle | Promise<TraceHandle> {
    const key = this.#resolveTraceKey(name, format);
    const cached = this.#traces.get(key);
    if (cached !== undefined) return cached;
    const handle = this.#createTrace(this.require(key, 'trace'));
    this.#traces.set(key, handle);
    if (handle instanceof Promise) {
      handle.then(
        (h) => this.#traces.set(key, h),
        () => this.#traces.delete(key),
      );
    }
    return handle;
  }

  #resolveTraceKey(name: string, format: string | undefined): string {
    if (format === undefined) return name;
    for (const key of [name, `${name}:${format}`]) {
      const d = this.get(key);
      if (d !== null && (d.format ?? 'atif') === format) return key;
    }
    throw new EvidenceKeyError(
      `missing evidence descriptor ${pyRepr(name)} in format ${pyRepr(format)}`,
      name,
    );
  }

  #createTrace(d: EvidenceDescriptor): TraceHandle | Promise<TraceHandle> {
    const resolveRef = (ref: string): string => resolveLocalRef(ref, this.#baseDir);
    if (d.format === null || d.format === 'atif') {
      return ATIFTraceHandle.fromDescriptor(d, resolveRef, this.#atifOptions);
    }
    if (d.format !== 'otlp')
      throw new EvidenceValueError(`unknown trace evidence format ${pyRepr(d.format)}`);
    const loader = this.#loaders['otlp'];
    if (loader === undefined) {
      // Imported on demand: the OTLP module imports this one.
      return import('./otlp/otlp-trace-handle.js').then((m) =>
        m.OTLPTraceHandle.fromDescriptor(d, resolveRef),
      );
    }
    return loader(d, { resolveRef });
  }
}

function checkDescriptor(d: EvidenceDescriptor): EvidenceDescriptor {
  const normalized: EvidenceDescriptor = {
    kind: d.kind,
    format: d.format ?? null,
    ref: d.ref ?? null,
    data: d.data ?? null,
    description: d.description ?? null,
    metadata: d.metadata ?? {},
  };
  if (normalized.ref === null && normalized.data === null) {
    throw new EvidenceValueError('evidence descriptor requires ref or data');
  }
  return normalized;
}

/**
 * Turns an evidence `ref` into an absolute local path: a POSIX path (relative refs resolve against
 * `baseDir`), a `file://` URI (percent-decoded) or a Windows drive path. http/https/s3/gs and other
 * URI schemes are refused with the SDK's message.
 *
 * @example
 * resolveLocalRef('traces/t1.atif.json', '/runs/r1'); // '/runs/r1/traces/t1.atif.json'
 * resolveLocalRef('s3://bucket/x', '/'); // throws EvidenceValueError
 */
export function resolveLocalRef(ref: string, baseDir: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(ref)?.[1]?.toLowerCase();
  if (scheme === undefined || (scheme.length === 1 && /^[a-z]$/.test(scheme))) {
    return isAbsolute(ref) ? ref : resolve(baseDir, ref);
  }
  if (scheme === 'http' || scheme === 'https' || scheme === 's3' || scheme === 'gs') {
    throw new EvidenceValueError('CandidateEvidence.filesystem only supports local filesystem refs');
  }
  if (scheme === 'file') {
    const rest = ref.slice('file:'.length);
    // file:///abs/path, file://localhost/abs/path, file:/abs/path, file:relative
    const withoutAuthority = rest.startsWith('//') ? rest.slice(2).replace(/^[^/]*/, '') : rest;
    const decoded = decodeURIComponent(withoutAuthority);
    return isAbsolute(decoded) ? decoded : resolve(baseDir, decoded);
  }
  throw new EvidenceValueError(`CandidateEvidence.filesystem does not support ${pyRepr(scheme)} refs`);
}
