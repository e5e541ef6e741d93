import type { IncomingHttpHeaders } from 'node:http';
import { parseBool, type RequestInfo } from '../k8s/request-info';
import { isWatchStream, parseMediaType } from '../wire/media-types';

/**
 * Whether a response body is a stream to record as frames with arrival offsets, rather than one
 * body: watches, `follow=true` logs, event streams. A chunked list is still one body.
 */
export function isStreamedResponse(info: RequestInfo, status: number, headers: IncomingHttpHeaders): boolean {
  if (status < 200 || status >= 300 || status === 204) return false;
  if (isWatchStream(headers['content-type'])) return true;
  if (info.verb === 'watch') return true;
  if (headers['content-length'] !== undefined) return false;
  if (info.subresource === 'log' && parseBool(info.query.get('follow'))) return true;
  const mt = parseMediaType(headers['content-type']);
  return mt.type === 'text' && mt.subtype === 'event-stream';
}
