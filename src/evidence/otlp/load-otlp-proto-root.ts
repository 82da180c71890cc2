import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

/** The `.proto` files of `proto/`, relative to that directory. */
const PROTO_FILES = [
  'opentelemetry/proto/common/v1/common.proto',
  'opentelemetry/proto/resource/v1/resource.proto',
  'opentelemetry/proto/trace/v1/trace.proto',
  'opentelemetry/proto/collector/trace/v1/trace_service.proto',
  'opentelemetry/proto/logs/v1/logs.proto',
  'opentelemetry/proto/collector/logs/v1/logs_service.proto',
];

let cached: protobuf.Root | null = null;

/** The package's `proto/` directory, found by walking up from this module (works from src and dist). */
function protoDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'proto');
    if (existsSync(join(candidate, PROTO_FILES[0] as string))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('evalstream: cannot find the proto/ directory');
    dir = parent;
  }
}

/**
 * The protobufjs `Root` of evalstream's OTLP trace and logs `.proto` files (loaded once, then cached). Look up
 * `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest` to encode or reflection-decode.
 *
 * @example
 * const Req = loadOtlpProtoRoot().lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
 * const msg = Req.decode(bytes);
 */
export function loadOtlpProtoRoot(): protobuf.Root {
  if (cached === null) {
    const base = protoDir();
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => (target.startsWith(base) ? target : resolve(base, target));
    root.loadSync(PROTO_FILES.map((f) => join(base, f)));
    root.resolveAll();
    cached = root;
  }
  return cached;
}
