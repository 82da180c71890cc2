import * as z from 'zod';
import type { JsonValue } from '../../model/json-value.js';

const extra = z.record(z.string(), z.unknown()).nullish();
const count = z.number().int().nullish();
const json: z.ZodType<JsonValue> = z.json() as z.ZodType<JsonValue>;

const mediaSource = z.looseObject({
  media_type: z.string(),
  path: z.string(),
  duration_sec: z.number().nullish(),
});

const contentPart = z.looseObject({
  type: z.enum(['text', 'image', 'audio']),
  text: z.string().nullish(),
  source: mediaSource.nullish(),
});

const message = z.union([z.string(), z.array(contentPart)]);

const toolCall = z.looseObject({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), json),
  extra,
});

const subagentRef = z.looseObject({
  trajectory_id: z.string().nullish(),
  trajectory_path: z.string().nullish(),
  session_id: z.string().nullish(),
  extra,
});

const observationResult = z.looseObject({
  source_call_id: z.string().nullish(),
  // Tool output: text, content parts, or (leniently) any JSON a producer wrote.
  content: json.optional(),
  subagent_trajectory_ref: z.array(subagentRef).nullish(),
  extra,
});

const stepMetrics = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  cached_tokens: count,
  cost_usd: z.number().nullish(),
  prompt_token_ids: z.array(z.number().int()).nullish(),
  completion_token_ids: z.array(z.number().int()).nullish(),
  logprobs: z.array(z.number().nullable()).nullish(),
  extra,
});

const step = z.looseObject({
  step_id: z.number().int().min(1),
  timestamp: z.string().nullish(),
  source: z.enum(['system', 'user', 'agent']),
  model_name: z.string().nullish(),
  reasoning_effort: z.union([z.string(), z.number()]).nullish(),
  message,
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(toolCall).nullish(),
  observation: z.looseObject({ results: z.array(observationResult) }).nullish(),
  metrics: stepMetrics.nullish(),
  extra,
  llm_call_count: z.number().int().min(0).nullish(),
  is_copied_context: z.boolean().nullish(),
});

const agent = z.looseObject({
  name: z.string(),
  version: z.string(),
  model_name: z.string().nullish(),
  tool_definitions: z.array(json).nullish(),
  extra,
});

const finalMetrics = z.looseObject({
  total_prompt_tokens: count,
  total_completion_tokens: count,
  total_cached_tokens: count,
  total_cost_usd: z.number().nullish(),
  total_steps: count,
  extra,
});

/**
 * Minor version of `ATIF-v1.N`, or null for any other `ATIF-...` value.
 *
 * @example
 * atifMinorVersion('ATIF-v1.6'); // 6
 */
export function atifMinorVersion(schemaVersion: string): number | null {
  const m = /^ATIF-v1\.(\d+)$/.exec(schemaVersion);
  return m?.[1] === undefined ? null : Number(m[1]);
}

const trajectoryFields = z.looseObject({
  schema_version: z.string().refine((v) => v.startsWith('ATIF-'), {
    message: "schema_version must start with 'ATIF-'",
  }),
  session_id: z.string().nullish(),
  trajectory_id: z.string().nullish(),
  agent,
  steps: z.array(step).min(1, { message: 'steps must contain at least one step' }),
  notes: z.string().nullish(),
  final_metrics: finalMetrics.nullish(),
  continued_trajectory_ref: z.string().nullish(),
  extra,
});

const trajectoryObject = trajectoryFields
  .extend({
    get subagent_trajectories() {
      return z.array(atifTrajectorySchema).nullish();
    },
  })
  .superRefine((t, ctx) => {
    const minor = atifMinorVersion(t.schema_version);
    if (minor !== null && minor <= 6 && (t.session_id === undefined || t.session_id === null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['session_id'],
        message: `session_id is required up to ATIF-v1.6 (document says ${t.schema_version})`,
      });
    }
  });

/*
 * ATIF v1.0–v1.8 trajectory types (Harbor RFC 0001), as the schema below reads them. Every object may
 * carry unknown keys (kept on read); optional fields may be absent or null. See docs/evidence.md for
 * the rules enforced on load.
 */

/** A multimodal content part (v1.6+): `text` carries `text`, media parts carry `source`. */
export type AtifContentPart = z.infer<typeof contentPart>;
/** A tool call of an agent step. */
export type AtifToolCall = z.infer<typeof toolCall>;
/** One step of a trajectory. */
export type AtifStep = z.infer<typeof step>;
/** Trajectory totals (`final_metrics`), also what `ATIFTraceHandle.tokenUsage()` returns. */
export type AtifFinalMetrics = z.infer<typeof finalMetrics>;
/** An ATIF trajectory document, with its embedded subagent trajectories. */
export interface AtifTrajectory extends z.infer<typeof trajectoryFields> {
  subagent_trajectories?: AtifTrajectory[] | null | undefined;
}

/**
 * zod schema of an ATIF trajectory, any version `ATIF-v1.0`..`ATIF-v1.8` (and later `ATIF-` values):
 * unknown keys are kept; the fields the RFC marks required are required (`schema_version` starting
 * with `ATIF-`, `agent.name`/`version`, ≥ 1 step with `step_id` ≥ 1, `source`, `message`, tool call
 * `tool_call_id`/`function_name`/object `arguments`, `observation.results`, `session_id` up to v1.6).
 * Cross-field rules (sequential ids, agent-only fields, call-id joins...) are in `checkAtifConformance`.
 *
 * @example
 * const r = atifTrajectorySchema.safeParse(JSON.parse(text));
 * if (r.success) console.log(r.data.steps.length);
 */
export const atifTrajectorySchema: z.ZodType<AtifTrajectory> =
  trajectoryObject as unknown as z.ZodType<AtifTrajectory>;
