import type { OtlpFileLayout } from './otlp-payload-splitter.js';

/**
 * The layout an OTLP file's name implies (a trailing `.gz` is ignored): `.jsonl`/`.ndjson` → JSON
 * lines, `.json` → JSON (lines or one document, decided from content), `.pb`/`.binpb`/`.protobuf`/
 * `.bin` → protobuf (one request or frames, decided from content), anything else → `auto`.
 *
 * @example
 * otlpFileLayout('dump/traces.jsonl.gz'); // 'jsonl'
 */
export function otlpFileLayout(path: string): OtlpFileLayout {
  const name = path.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  if (name.endsWith('.json')) return 'json';
  if (/\.(pb|binpb|protobuf|bin)$/.test(name)) return 'protobuf';
  return 'auto';
}
