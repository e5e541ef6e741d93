import { gunzipSync } from 'node:zlib';
import type { RecordedResponse } from './exchange-store';

/**
 * A recorded gzip body for a client that did not ask for gzip: the apiserver would have sent it
 * plain (it compresses only on `Accept-Encoding: gzip`), so replay decompresses it rather than
 * send bytes the client cannot read. Everything else is served as recorded. Returns the response
 * to send, and whether it was decoded.
 */
export function forClientEncoding(recorded: RecordedResponse, acceptEncoding: string | undefined): RecordedResponse {
  if (!recorded.body || recorded.streamed || recorded.outcome !== 'complete') return recorded;
  const coding = recorded.headers.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
  if (!coding || coding.trim().toLowerCase() !== 'gzip' || acceptsGzip(acceptEncoding)) return recorded;
  let body: Buffer;
  try {
    body = gunzipSync(recorded.body);
  } catch {
    return recorded; // not gzip after all: as recorded
  }
  return { ...recorded, body, headers: recorded.headers.filter(([name]) => name.toLowerCase() !== 'content-encoding'), sendHeaders: undefined };
}

function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}
