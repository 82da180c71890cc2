import { describe, expect, it } from 'vitest';
import { describeScoreProgress, type ScoreProgressCounts } from '../../src/cli/commands/run-score.js';

const MiB = 1048576;
const at = (counts: Partial<ScoreProgressCounts>): ReturnType<typeof describeScoreProgress> =>
  describeScoreProgress({
    bytesRead: 0,
    totalBytes: 100 * MiB,
    readDone: false,
    trialsRead: 0,
    trialsScored: 0,
    elapsedSec: 10,
    ...counts,
  });

describe('describeScoreProgress', () => {
  it('stays at 0 % with every byte read while no trial is scored, and says so', () => {
    const view = at({ bytesRead: 100 * MiB, readDone: true, trialsRead: 2585, trialsScored: 0 });
    expect(view.fraction).toBe(0);
    expect(view.text).toBe('0/2585 trials scored | 100.0/100.0 MiB read | 0.0 trials/s | ETA ?');
  });

  it('is the share read times the share of read trials scored, while reading runs ahead', () => {
    const view = at({ bytesRead: 50 * MiB, trialsRead: 400, trialsScored: 100 });
    expect(view.fraction).toBe(0.5 * 0.25);
    // more trials are coming: the count read is a lower bound; ETA = 10 s × 0.875 / 0.125
    expect(view.text).toBe('100/400+ trials scored | 50.0/100.0 MiB read | 10.0 trials/s | ETA 70s');
  });

  it('once reading is done, counts scored of read trials, and reaches 1 only when all are scored', () => {
    expect(at({ bytesRead: 100 * MiB, readDone: true, trialsRead: 10, trialsScored: 8 }).fraction).toBe(0.8);
    expect(at({ bytesRead: 100 * MiB, readDone: true, trialsRead: 10, trialsScored: 10 }).fraction).toBe(1);
  });

  it('inputs that report no bytes (Harbor jobs, ATIF, bundles) move only once read, by trials scored', () => {
    const reading = at({ totalBytes: 5 * MiB, trialsRead: 3, trialsScored: 3 });
    expect(reading.fraction).toBe(0);
    expect(reading.text.startsWith('3/3+ trials scored | 0.0/5.0 MiB read')).toBe(true);
    expect(at({ totalBytes: 5 * MiB, readDone: true, trialsRead: 4, trialsScored: 3 }).fraction).toBe(0.75);
  });

  it('never shows more bytes read than the inputs hold, nor a share above 1', () => {
    const view = at({ bytesRead: 120 * MiB, totalBytes: 100 * MiB, trialsRead: 2, trialsScored: 3 });
    expect(view.fraction).toBe(1);
    expect(view.text).toContain('100.0/100.0 MiB read');
  });
});
