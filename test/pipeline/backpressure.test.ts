import { copyFileSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { beforeAll, describe, expect, it } from 'vitest';
import { continuousScore } from '../../src/metrics/output-specs.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { Metric } from '../../src/model/metric.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { TrialItem } from '../../src/model/trial-item.js';
import { buildPipeline } from '../../src/pipeline/build-pipeline.js';
import { PullSource } from '../../src/pipeline/pull-source.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import type { Sink } from '../../src/sinks/sink.js';
import { toRunBundle } from '../../src/sinks/to-run-bundle.js';
import { fromAtifFiles } from '../../src/sources/from-atif-files.js';
import { fromBundle } from '../../src/sources/from-bundle.js';
import { fromGymRollouts } from '../../src/sources/from-gym-rollouts.js';
import { fromHarborJob } from '../../src/sources/from-harbor-job.js';
import { fromOtlpFiles } from '../../src/sources/from-otlp-files.js';
import { recordTrial, sdkTracer } from '../sources/from-otlp-fixtures.js';

const CONCURRENCY = 4;
const LINE_TRIALS = 1500;
const FILE_TRIALS = 150;
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Counts, at every read and every scoring step, the trials the pipeline has taken from its source
 * and not yet finished scoring (or, with a slow sink, not yet written).
 */
class Probe {
  read = 0;
  scored = 0;
  written = 0;
  maxUnscored = 0;
  maxUnwritten = 0;

  observe(): void {
    this.maxUnscored = Math.max(this.maxUnscored, this.read - this.scored);
    this.maxUnwritten = Math.max(this.maxUnwritten, this.read - this.written);
  }

  /** The source, counted as the pipeline pulls from it (still a pull source). */
  count(source: PullSource<TrialItem>): PullSource<TrialItem> {
    const counted = async function* (self: Probe): AsyncGenerator<TrialItem> {
      for await (const item of source) {
        self.read++;
        self.observe();
        yield item;
      }
    };
    return new PullSource(() => counted(this));
  }

  /** A metric that takes a few turns of the event loop per trial. */
  slowMetric(): Metric {
    return {
      type: 'slow',
      outputSpec: () => [continuousScore('score')],
      computeScores: async () => {
        this.observe();
        await tick();
        await tick();
        this.scored++;
        this.observe();
        return { outputs: [{ name: 'score', value: 1 }] };
      },
    };
  }
}

let probe: Probe;

async function run(source: PullSource<TrialItem>, sinks: Sink<ScoredTrial>[] = []): Promise<number> {
  const config = parseConfig({ metrics: { default: [probe.slowMetric()] } }, 'test');
  config.scoring.concurrency = CONCURRENCY;
  const result = await runPipeline(buildPipeline({ source: probe.count(source), sinks, config, runId: 'R' }));
  expect(result.error).toBeNull();
  return result.stats.trials;
}

let dir: string;
const inputs = {
  otlp: '',
  gym: '',
  atif: [] as string[],
  harbor: '',
  bundle: '',
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evalstream-backpressure-'));
  const { tracer, exporter } = sdkTracer();
  const lines: string[] = [];
  for (let i = 0; i < LINE_TRIALS; i++) {
    recordTrial(tracer, `run:conv-${i}`, `task-${i % 7}`, ['search'], 1_760_000_000 + i);
    lines.push(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())));
    exporter.reset();
  }
  inputs.otlp = join(dir, 'dump.jsonl');
  writeFileSync(inputs.otlp, lines.join('\n') + '\n');

  inputs.gym = join(dir, 'rollouts.jsonl');
  const rows: string[] = [];
  for (let i = 0; i < LINE_TRIALS; i++) {
    rows.push(JSON.stringify({ _ng_task_index: i % 9, _ng_rollout_index: Math.floor(i / 9), reward: i % 2 }));
  }
  writeFileSync(inputs.gym, rows.join('\n') + '\n');

  for (let i = 0; i < FILE_TRIALS; i++) {
    const file = join(dir, 'atif', `t${i}.atif.json`);
    mkdirSync(join(dir, 'atif'), { recursive: true });
    copyFileSync('test/fixtures/atif/nemo-agent-toolkit__exmp02_atif.json', file);
    inputs.atif.push(file);
  }

  inputs.harbor = join(dir, 'job');
  for (let i = 0; i < FILE_TRIALS; i++) {
    const trialDir = join(inputs.harbor, `task-${i % 5}__${String(i).padStart(4, '0')}`);
    mkdirSync(trialDir, { recursive: true });
    writeFileSync(
      join(trialDir, 'result.json'),
      JSON.stringify({
        trial_name: `trial-${i}`,
        task_name: `task-${i % 5}`,
        verifier_result: { rewards: { reward: 1 } },
      }),
    );
  }

  // a bundle of the Gym rollouts, written by the pipeline itself
  inputs.bundle = join(dir, 'bundle');
  probe = new Probe();
  await run(fromGymRollouts([inputs.gym]), [toRunBundle(inputs.bundle, { runId: 'R' })]);
});

describe('backpressure from source to sink', () => {
  const sources: [string, () => PullSource<TrialItem>, number][] = [
    ['fromOtlpFiles', () => fromOtlpFiles([inputs.otlp], { chunkBytes: 4096 }), LINE_TRIALS],
    ['fromGymRollouts', () => fromGymRollouts([inputs.gym]), LINE_TRIALS],
    ['fromBundle', () => fromBundle(inputs.bundle), LINE_TRIALS],
    ['fromAtifFiles', () => fromAtifFiles(inputs.atif), FILE_TRIALS],
    ['fromHarborJob', () => fromHarborJob(inputs.harbor), FILE_TRIALS],
  ];

  it.each(sources)(
    '%s: a slow metric holds at most `concurrency` trials read and not yet scored',
    async (_name, open, trials) => {
      probe = new Probe();
      expect(await run(open())).toBe(trials);
      expect(probe.scored).toBe(trials);
      expect(probe.maxUnscored).toBeLessThanOrEqual(CONCURRENCY);
    },
  );

  it('fromOtlpFiles reads the file only as fast as trials are scored', async () => {
    probe = new Probe();
    const size = statSync(inputs.otlp).size;
    let bytesAtTenth = -1;
    let scoredAtTenth = 0;
    let bytesRead = 0;
    const source = fromOtlpFiles([inputs.otlp], {
      chunkBytes: 4096,
      onProgress: (p) => {
        bytesRead = p.bytesRead;
      },
    });
    const metric = probe.slowMetric();
    const watching: Metric = {
      ...metric,
      computeScores: async (input) => {
        // two scorings may finish before the next one starts: take the first start after the tenth
        if (probe.scored >= 10 && bytesAtTenth < 0) {
          bytesAtTenth = bytesRead;
          scoredAtTenth = probe.scored;
        }
        return metric.computeScores(input);
      },
    };
    const config = parseConfig({ metrics: { default: [watching] } }, 'test');
    config.scoring.concurrency = CONCURRENCY;
    await runPipeline(buildPipeline({ source, sinks: [], config, runId: 'R' }));
    // read ahead: the grouping window (256 requests, one trial per line here), the trials in flight
    // and one read chunk; not the file
    const perLine = size / LINE_TRIALS;
    expect(bytesAtTenth).toBeGreaterThan(0);
    expect(bytesAtTenth).toBeLessThanOrEqual((256 + scoredAtTenth + CONCURRENCY + 1) * perLine + 4096);
    expect(bytesAtTenth).toBeLessThan(size / 4);
  });

  it('a slow sink slows the source too: at most `concurrency` + 1 trials read and not yet written', async () => {
    probe = new Probe();
    const slowSink: Sink<ScoredTrial> = {
      write: async () => {
        probe.observe();
        for (let i = 0; i < 5; i++) await tick();
        probe.written++;
        probe.observe();
      },
      flush: async () => undefined,
      shutdown: async () => undefined,
    };
    expect(await run(fromGymRollouts([inputs.gym]), [slowSink])).toBe(LINE_TRIALS);
    expect(probe.written).toBe(LINE_TRIALS);
    expect(probe.maxUnwritten).toBeLessThanOrEqual(CONCURRENCY + 1);
  });
});
