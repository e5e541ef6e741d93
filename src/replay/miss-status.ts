import { StatusError, failure } from '../k8s/status';
import type { Candidate } from './explain-miss';

/** `details.causes[].reason` of each candidate in a miss's Status. */
export const CANDIDATE_REASON = 'RecordedExchangeDiffers';

/**
 * The 404 a miss is answered with under `--on-miss error`: the message names the request and the
 * closest candidates; `details.causes` has one entry per candidate (`field`: `exchanges[ID]`,
 * `message`: the recorded request and how it differs).
 */
export function replayMiss(message: string, candidates: readonly Candidate[]): StatusError {
  const causes = candidates.map((c) => ({
    reason: CANDIDATE_REASON,
    field: `exchanges[${c.exchangeId}]`,
    message: `${c.method} ${c.url}: ${c.differences.map((d) => d.message).join('; ')}`,
  }));
  return new StatusError(failure(404, 'NotFound', message, { causes }));
}
