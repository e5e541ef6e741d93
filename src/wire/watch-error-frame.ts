/**
 * The ERROR event that ends a watch (410 Gone, or any Status), in the stream's own encoding: a
 * JSON line, or a length-prefixed protobuf WatchEvent whose object is an enveloped Status.
 * Transcripts: c2-watch-rv1-cache-on.txt (JSON), e2-watch-protobuf.* (protobuf framing).
 */
import { isProtobuf } from './media-types';
import { encodeEnvelope, encodeWatchEvent, lengthPrefix } from './protobuf';
import { encodeStatus } from './protobuf-status';
import type { Status } from './status-types';

/** A watch ERROR event carrying `status`, in the stream's encoding (`contentType`). */
export function watchErrorFrame(contentType: string | undefined, status: Status): Buffer {
  if (isProtobuf(contentType)) {
    return lengthPrefix(encodeWatchEvent('ERROR', encodeEnvelope({ apiVersion: 'v1', kind: 'Status' }, encodeStatus(status))));
  }
  return Buffer.from(`${JSON.stringify({ type: 'ERROR', object: status })}\n`, 'utf8');
}
