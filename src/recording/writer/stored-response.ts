import { redactedBody, type ExchangeContext } from './exchange-context';

export interface StoredResponse {
  body: Buffer | null;
  headers: string | null;
  /** Why the body was not stored (its size and the reason), or null. */
  dropped: string | null;
}

/**
 * The response body as it is stored: as on the wire, except that credentials are redacted (see
 * redact-secrets.ts), with Content-Length kept true to it (0 when the body is not stored).
 */
export function storedResponse(ctx: ExchangeContext, body: Buffer | null): StoredResponse {
  const headers = ctx.head.responseHeaders;
  if (!body || !ctx.redact) return { body, headers, dropped: null };
  const stored = redactedBody(ctx.redact, ctx.responseContentType, ctx.responseGzip, body, false);
  if (stored.body === body) return { body, headers, dropped: null };
  const length = String(stored.body?.length ?? 0);
  const pairs = (JSON.parse(headers!) as Array<[string, string]>).map(([k, v]): [string, string] =>
    k.toLowerCase() === 'content-length' ? [k, length] : [k, v]);
  return { body: stored.body, headers: JSON.stringify(pairs), dropped: stored.dropped };
}
