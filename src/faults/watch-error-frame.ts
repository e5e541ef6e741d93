/**
 * The ERROR event that ends a watch with 410 Gone, in the stream's own encoding: a JSON line, or
 * a length-prefixed protobuf WatchEvent whose object is an enveloped Status.
 * Transcripts: c2-watch-rv1-cache-on.txt (JSON), e2-watch-protobuf.* (protobuf framing).
 */
import { watchTooOld, type Status } from '../k8s/status';
import { encodeEnvelope, encodeStatus, encodeWatchEvent, isProtobuf, lengthPrefix } from '../wire';

/** `too old resource version: N (M)`; M is one past N (the oldest RV still available − 1, as if compacted past N). */
export function goneStatus(requestedRv: string | undefined, message?: string): Status {
  const requested = requestedRv || '0';
  const oldest = /^\d+$/.test(requested) ? String(BigInt(requested) + 1n) : requested;
  const status = watchTooOld(requested, oldest);
  if (message !== undefined) status.message = message;
  return status;
}

export function watchErrorFrame(contentType: string | undefined, status: Status): Buffer {
  if (isProtobuf(contentType)) {
    return lengthPrefix(encodeWatchEvent('ERROR', encodeEnvelope({ apiVersion: 'v1', kind: 'Status' }, encodeStatus(status))));
  }
  return Buffer.from(`${JSON.stringify({ type: 'ERROR', object: status })}\n`, 'utf8');
}
