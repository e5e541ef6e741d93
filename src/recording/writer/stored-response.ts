import { gzipSync } from 'node:zlib';
import { gunzipSafe } from '../../wire/gzip';
import { redactBody, type ExchangeContext } from './exchange-context';

export interface StoredResponse {
  body: Buffer | null;
  headers: string | null;
}

/**
 * The response body as it is stored: as on the wire, except that Secret values are redacted (a
 * gzip body is gunzipped, redacted and gzipped again), with Content-Length kept true to it.
 */
export function storedResponse(ctx: ExchangeContext, body: Buffer | null): StoredResponse {
  const headers = ctx.head.responseHeaders;
  if (!body || !ctx.redact) return { body, headers };
  const plain = ctx.responseGzip ? gunzipSafe(body) : body;
  if (plain instanceof Error) return { body, headers };
  const redacted = redactBody(ctx.responseContentType, plain);
  if (!redacted) return { body, headers };
  const stored = ctx.responseGzip ? gzipSync(redacted) : redacted;
  const pairs = (JSON.parse(headers!) as Array<[string, string]>).map(([k, v]): [string, string] =>
    k.toLowerCase() === 'content-length' ? [k, String(stored.length)] : [k, v]);
  return { body: stored, headers: JSON.stringify(pairs) };
}
