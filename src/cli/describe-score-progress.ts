/** What `evalstream score` knows about its progress at one moment. */
export interface ScoreProgressCounts {
  /** Input bytes read so far, by the readers that report bytes (OTLP, Gym). */
  bytesRead: number;
  /** Size of all inputs (0 when unknown). */
  totalBytes: number;
  /** Whether the source has emitted its last trial. */
  readDone: boolean;
  trialsRead: number;
  trialsScored: number;
  elapsedSec: number;
}

/** The bar's position (0..1) and the text after it. */
export interface ScoreProgressView {
  fraction: number;
  text: string;
}

/**
 * The progress of `score` as the bar shows it: the share of the work done is the share of the input
 * read times the share of the trials read so far that are scored, so the bar reaches 100 % only when
 * every trial is scored (reading runs ahead of scoring); the text gives both counts.
 *
 * @example
 * describeScoreProgress({ bytesRead: 10, totalBytes: 10, readDone: true, trialsRead: 4, trialsScored: 1, elapsedSec: 2 });
 * // { fraction: 0.25, text: '1/4 trials scored | 0.0/0.0 MiB read | 0.5 trials/s | ETA 6s' }
 */
export function describeScoreProgress(counts: ScoreProgressCounts): ScoreProgressView {
  const { bytesRead, totalBytes, readDone, trialsRead, trialsScored } = counts;
  const elapsed = Math.max(counts.elapsedSec, 0.001);
  const readShare = readDone ? 1 : totalBytes > 0 ? Math.min(1, bytesRead / totalBytes) : 0;
  const scoredShare = trialsRead > 0 ? Math.min(1, trialsScored / trialsRead) : 0;
  const fraction = readShare * scoredShare;
  const eta = fraction > 0 ? `${Math.round((elapsed * (1 - fraction)) / fraction)}s` : '?';
  const read = readDone ? `${trialsRead}` : `${trialsRead}+`;
  const text = [
    `${trialsScored}/${read} trials scored`,
    `${mib(Math.min(bytesRead, totalBytes))}/${mib(totalBytes)} MiB read`,
    `${(trialsScored / elapsed).toFixed(1)} trials/s`,
    `ETA ${eta}`,
  ].join(' | ');
  return { fraction, text };
}

function mib(n: number): string {
  return (n / 1048576).toFixed(1);
}
