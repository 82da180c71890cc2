import { Observable, type OperatorFunction } from 'rxjs';
import { OtlpTrialGrouper, type OtlpGroupingConfig } from '../evidence/otlp/otlp-trial-grouper.js';
import type { OtlpRequestItem } from '../evidence/otlp/otlp-stream-types.js';
import type { TrialItem } from '../model/trial-item.js';

/**
 * Groups decoded OTLP requests into trials (see `OtlpTrialGrouper` and docs/otlp.md for the rule:
 * trial key from `gen_ai.conversation.id` on the shallowest span of each trace, else the trace id;
 * task id from `nemo.test_case.name`, else the trial id). Trials are emitted as soon as they are
 * complete; on completion and on error every trial still open is emitted first, then the completion
 * or the error passes through, so trials read before a bad input are kept.
 *
 * @example
 * from(readOtlpPayloads('dump.jsonl')).pipe(decodeOtlp(), groupIntoTrials()).subscribe((t) => console.log(t.trial.id));
 */
export function groupIntoTrials(
  config: OtlpGroupingConfig = {},
): OperatorFunction<OtlpRequestItem, TrialItem> {
  return (source) =>
    new Observable<TrialItem>((subscriber) => {
      const grouper = new OtlpTrialGrouper(config);
      const emit = (trials: TrialItem[]): void => {
        for (const t of trials) {
          if (subscriber.closed) return;
          subscriber.next(t);
        }
      };
      return source.subscribe({
        next: (request) => {
          let trials: TrialItem[];
          try {
            trials = grouper.push(request);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          emit(trials);
        },
        error: (error: unknown) => {
          let trials: TrialItem[];
          try {
            trials = grouper.flush();
          } catch (flushError) {
            subscriber.error(flushError);
            return;
          }
          emit(trials);
          subscriber.error(error);
        },
        complete: () => {
          let trials: TrialItem[];
          try {
            trials = grouper.flush();
          } catch (error) {
            subscriber.error(error);
            return;
          }
          emit(trials);
          subscriber.complete();
        },
      });
    });
}
