/**
 * A scoring worker thread (see `scoreInWorkers`): loads the run's config itself, then for each chunk
 * it is given reads its trials (`read`), waits for the main thread's plans of their tasks (`plans`),
 * scores them with `scoreTrials` and sends back the scores (`scored`), or why it could not
 * (`failed`). Chunks are scored one after another, in the order their plans arrive.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EvalstreamConfig } from '../config/evalstream-config.js';
import { loadConfig } from '../config/load-config.js';
import { parseConfig } from '../config/parse-config.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { TrialItem } from '../model/trial-item.js';
import { scoreTrials } from '../operators/score-trials.js';
import { createTrialPlanner } from '../pipeline/create-trial-planner.js';
import { PullSource } from '../pipeline/pull-source.js';
import type { TrialPlan } from '../pipeline/trial-plan.js';
import { DEFAULT_SELECTION_LIMITS } from '../report/default-selection-limits.js';
import { readTrialTrajectory } from '../report/read-trial-trajectory.js';
import { TrajectorySelection } from '../report/trajectory-selection.js';
import { errorToWire } from './error-to-wire.js';
import { floatPathsOf } from './float-paths-of.js';
import type {
  FromWorkerMessage,
  OtlpChunkCheck,
  ScoreWorkerData,
  ScoredWire,
  TaskPlanWire,
  ToWorkerMessage,
} from './worker-messages.js';
import { readWorkChunk } from './read-work-chunk.js';
import { readOtlpFrames } from './read-otlp-frames.js';
import { buildOtlpTrialPart, type OtlpTrialPart } from '../evidence/otlp/build-otlp-trial-part.js';
import type { WorkChunk } from './work-chunk.js';

const port = parentPort;
if (port !== null) {
  const data = workerData as ScoreWorkerData;
  const post = (message: FromWorkerMessage): void => port.postMessage(message);
  const config = loadWorkerConfig(data);
  /** Items read per chunk, until scored or dropped. */
  const chunks = new Map<number, TrialItem[]>();
  const plans = new Map<string, TrialPlan>();
  // a subset of the run in its order: it keeps every trial the report keeps (and a few more)
  const selection = new TrajectorySelection(DEFAULT_SELECTION_LIMITS);
  let scoring: Promise<void> = Promise.resolve();

  /** How the trials of each `otlp-frames` chunk were grouped, until it is scored (for `rename`). */
  const otlpParts = new Map<number, OtlpTrialPart[]>();
  const checks = new Map<number, OtlpChunkCheck>();

  const postRead = (
    id: number,
    items: TrialItem[],
    extra: Pick<Extract<FromWorkerMessage, { type: 'read' }>, 'trialIdCounts' | 'issues' | 'error' | 'otlp'>,
    bytes: ArrayBuffer | null = null,
  ): void => {
    const trials = items.map((item) => ({
      trial: item.trial,
      task: item.task,
      origin: item.origin,
      floats: floatPathsOf(item.trial),
    }));
    const message: FromWorkerMessage = { type: 'read', id, trials, ...extra, bytes };
    if (bytes === null) port.postMessage(message);
    else port.postMessage(message, [bytes]);
  };

  const read = async (id: number, chunk: WorkChunk): Promise<void> => {
    const issues: string[] = [];
    const onIssue = (issue: Error): void => void issues.push(issue.message);
    if (chunk.kind === 'otlp-frames') {
      const { items, parts, check } = readOtlpFrames(chunk, onIssue);
      chunks.set(id, items);
      otlpParts.set(id, parts);
      checks.set(id, check);
      postRead(id, items, { trialIdCounts: null, issues, error: chunk.error, otlp: check }, chunk.bytes);
      return;
    }
    const counts = new Map(chunk.kind === 'atif' ? chunk.trialIdCounts : []);
    const items: TrialItem[] = [];
    let error = null;
    try {
      for await (const item of readWorkChunk(chunk, counts)) items.push(item);
    } catch (thrown) {
      error = errorToWire(thrown);
    }
    chunks.set(id, items);
    postRead(id, items, {
      trialIdCounts: chunk.kind === 'atif' ? [...counts] : null,
      issues,
      error,
      otlp: null,
    });
  };

  /** Split OTLP trials renumbered after the parts earlier chunks emitted; the chunk is sent again. */
  const rename = (id: number, renames: [number, number][]): void => {
    const items = chunks.get(id);
    const parts = otlpParts.get(id);
    const check = checks.get(id);
    if (items === undefined || parts === undefined || check === undefined) return;
    for (const [index, part] of renames) {
      const made = { ...(parts[index] as OtlpTrialPart), part };
      parts[index] = made;
      items[index] = buildOtlpTrialPart(made);
      check.parts[index] = part;
    }
    postRead(id, items, { trialIdCounts: null, issues: [], error: null, otlp: check });
  };

  const score = async (id: number, wires: TaskPlanWire[]): Promise<void> => {
    const items = chunks.get(id);
    chunks.delete(id);
    otlpParts.delete(id);
    checks.delete(id);
    if (items === undefined) return;
    const { metricsOf } = await config;
    for (const wire of wires) {
      plans.set(wire.task.id, { task: wire.task, metrics: metricsOf(wire), rowIndex: wire.rowIndex });
    }
    const { scoring: options, runId } = await config;
    const results: ScoredWire[] = [];
    const scored$ = scoreTrials({
      runId,
      plan: (item) => plans.get(item.trial.task_id) as TrialPlan,
      concurrency: options.concurrency,
      timeoutMs: options.timeoutMs,
      failFast: options.failFast,
    })(
      new PullSource(async function* () {
        yield* items;
      }),
    ) as PullSource<ScoredTrial>;
    for await (const { item, scores } of scored$) {
      const result: ScoredWire = { scores, floats: scores.map(floatPathsOf) };
      if (data.report && selection.wants(item.trial)) {
        selection.offer(item.trial, 0);
        result.trajectory = await readTrialTrajectory(item.trial, { evidence: item.evidence });
      }
      results.push(result);
    }
    post({ type: 'scored', id, results });
  };

  port.on('message', (message: ToWorkerMessage) => {
    switch (message.type) {
      case 'chunk':
        void read(message.id, message.chunk);
        return;
      case 'plans': {
        const { id, plans: wires } = message;
        scoring = scoring.then(() =>
          score(id, wires).catch((error: unknown) => post({ type: 'failed', id, error: errorToWire(error) })),
        );
        return;
      }
      case 'drop':
        chunks.delete(message.id);
        otlpParts.delete(message.id);
        checks.delete(message.id);
        return;
      case 'rename':
        rename(message.id, message.parts);
        return;
    }
  });
}

interface WorkerConfig {
  runId: string;
  scoring: EvalstreamConfig['scoring'];
  /** The metric objects for a task, picked from its first trial as the main thread's planner did. */
  metricsOf: (wire: TaskPlanWire) => TrialPlan['metrics'];
}

async function loadWorkerConfig(data: ScoreWorkerData): Promise<WorkerConfig> {
  const config =
    data.configFile === '(defaults)' ? parseConfig({}, '(defaults)') : await loadConfig(data.configFile);
  if (data.concurrency !== null) config.scoring.concurrency = data.concurrency;
  const planner = createTrialPlanner({ config, configFile: data.configFile });
  return {
    runId: data.runId,
    scoring: config.scoring,
    metricsOf: (wire) =>
      planner({ trial: wire.first.trial, task: wire.first.task, evidence: null, origin: { file: '' } })
        .metrics,
  };
}
