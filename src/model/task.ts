import type { z } from 'zod';
import type { rowSchemas } from '../bundle/row-schemas.js';

/**
 * A task as the summary and the bundle see it (`AgentEvalTask` with metrics as descriptors): the
 * output of `rowSchemas.task`. Live metric objects are attached separately when scoring (see
 * `ScoringTask`).
 *
 * @example
 * const t: TaskSpec = { id: 'A', intent: '', inputs: {}, reference: {}, metrics: [], views: {}, metadata: {} };
 */
export type TaskSpec = z.output<typeof rowSchemas.task>;
/** A metric as stored in `tasks.jsonl`: its type and declared outputs. */
export type MetricDescriptor = TaskSpec['metrics'][number];
/** One declared output of a metric. `required` absent means true. */
export type OutputDescriptor = MetricDescriptor['outputs'][number];
export type SemanticView = TaskSpec['views'][string];
/** View reducers (spec §1). */
export type SemanticReducer = SemanticView['reducer'];
