import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../k8s/request-info';
import type { StoredObject } from '../reconstruct';
import type { Revision } from '../store/revision';
import type { WatchFrameGuard } from './options';
import type { ReadContext } from './resolve-read';
import type { ServedResource } from './served-resources';

/** A request for objects of one served resource. */
export interface ResourceRequest {
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  resource: ServedResource;
  /** How reads of this request resolve (store, wait bound, stale-read hook); `continueStart` for a continued list. */
  read(continueStart?: string): ReadContext<StoredObject>;
  bookmarkIntervalMs: number;
  /** Length of a watch without timeoutSeconds. */
  watchTimeoutMs: number;
  /** The stream faults acting on this watch's frames, if any. */
  watchGuard(contentType: string): WatchFrameGuard | undefined;
  /** Whether this watch delivers a change (the watchEvent hook; default yes). */
  watchEvent(change: Revision<StoredObject>): boolean;
}
