import { watchTooOld, type Status } from '../k8s/status';

/** `too old resource version: N (M)`; M is one past N (the oldest RV still available − 1, as if compacted past N). */
export function goneStatus(requestedRv: string | undefined, message?: string): Status {
  const requested = requestedRv || '0';
  const oldest = /^\d+$/.test(requested) ? String(BigInt(requested) + 1n) : requested;
  const status = watchTooOld(requested, oldest);
  if (message !== undefined) status.message = message;
  return status;
}
