import { isAbsolute, resolve } from 'node:path';
import { EvidenceValueError } from './evidence-value-error.js';
import { pyRepr } from '../pycompat/py-repr.js';

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
