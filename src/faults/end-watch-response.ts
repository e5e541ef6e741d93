import type { ServerResponse } from 'node:http';
import { resetConnection } from './plan';
import type { StreamEnd } from './watch-stream-guard';

/** Ends a watch response the way a stream fault says: ERROR event then end, clean end, or reset. */
export function endWatchResponse(res: ServerResponse, end: StreamEnd): void {
  if (res.writableEnded || res.destroyed) return;
  if (end.how === 'reset') {
    resetAfterFlush(res);
    return;
  }
  if (end.frame) res.write(end.frame);
  res.end();
}

/**
 * A reset discards what the client has not read yet, so the events before it would be lost at
 * random: reset once the written frames are flushed, and the client has had a moment to read them.
 */
export const RESET_GRACE_MS = 25;

export function resetAfterFlush(res: ServerResponse): void {
  res.write('', () => setTimeout(() => resetConnection(res), RESET_GRACE_MS));
}
