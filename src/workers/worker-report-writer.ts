import { join } from 'node:path';
import { BUNDLE_FILES } from '../bundle/bundle-files.js';
import { bundleReportWriter } from '../bundle/bundle-report-writer.js';
import type { ReportWriter, StreamedReport } from '../bundle/report-writer.js';
import type { Trial } from '../model/trial.js';
import { readTrialTrajectory } from '../report/read-trial-trajectory.js';
import { ReportCollector } from '../report/report-collector.js';
import type { CompactTrajectory } from '../report/report-data.js';
import { writeReportModel } from '../report/write-report-model.js';

/**
 * `bundleReportWriter` for trials scored on worker threads: the trials reach the sinks without their
 * evidence handles, so the streamed report takes each kept trial's trajectory from `trajectories`
 * (read by the worker, see `scoreInWorkers`' `onTrajectory`), else from the trial's evidence refs.
 *
 * @example
 * const trajectories = new WeakMap();
 * toRunBundle(out, { reportWriter: workerReportWriter(trajectories) });
 */
export function workerReportWriter(
  trajectories: WeakMap<Trial, CompactTrajectory | string | null>,
): ReportWriter {
  const trajectoryOf = async (trial: Trial): Promise<CompactTrajectory | string | null> =>
    trajectories.has(trial) ? (trajectories.get(trial) ?? null) : readTrialTrajectory(trial);
  return Object.assign((...args: Parameters<ReportWriter>) => bundleReportWriter(...args), {
    stream: () => {
      const collector = new ReportCollector({ trajectoryOf });
      return {
        add: collector.addScored.bind(collector),
        finish: (run: Parameters<StreamedReport['finish']>[0]) =>
          writeReportModel(collector.finish(run), join(run.bundleDir, BUNDLE_FILES.report)),
      };
    },
  });
}
