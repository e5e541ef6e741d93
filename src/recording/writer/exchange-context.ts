import { gzipSync } from 'node:zlib';
import { requestInfo, type RequestInfo } from '../../k8s/request-info';
import { gunzipSafe, isGzip } from '../../wire/gzip';
import { redactBody, redactTarget, Unredactable, type RedactTarget } from './redact-secrets';
import type { ExchangeHead } from './writer-protocol';

/** What the writer knows about an exchange while it decodes and stores it. */
export interface ExchangeContext {
  head: ExchangeHead;
  info: RequestInfo;
  responseContentType: string | undefined;
  responseGzip: boolean;
  /** What credentials are to be redacted from what is stored (null: none, or `--keep-secrets`). */
  redact: RedactTarget | null;
}

export function exchangeContext(head: ExchangeHead, keepSecrets: boolean): ExchangeContext {
  const info = requestInfo(head.method, head.url);
  const responseHeaders = head.responseHeaders ? (JSON.parse(head.responseHeaders) as Array<[string, string]>) : [];
  return {
    head,
    info,
    responseContentType: headerValue(responseHeaders, 'content-type'),
    responseGzip: isGzip(headerValue(responseHeaders, 'content-encoding')),
    redact: keepSecrets ? null : redactTarget(info),
  };
}

export function headerValue(pairs: Array<[string, string]>, name: string): string | undefined {
  for (const [k, v] of pairs) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** A body as it is stored: `body` (null when not stored), and why it was not (`dropped`), or null. */
export interface StoredBody {
  body: Buffer | null;
  dropped: string | null;
}

/**
 * A body with its credentials redacted (a gzip body is gunzipped, redacted and gzipped again). A
 * body that cannot be parsed to redact it is not stored: `dropped` gives its size and the reason.
 */
export function redactedBody(target: RedactTarget, contentType: string | undefined, gzip: boolean, body: Buffer, request: boolean): StoredBody {
  const which = request ? 'request' : 'response';
  const plain = gzip ? gunzipSafe(body) : body;
  if (plain instanceof Error) return { body: null, dropped: `${which} body not stored (${body.length} bytes): gzip: ${plain.message}` };
  try {
    const redacted = redactBody(contentType, plain, target, request);
    if (!redacted) return { body, dropped: null };
    return { body: gzip ? gzipSync(redacted) : redacted, dropped: null };
  } catch (err) {
    if (!(err instanceof Unredactable)) throw err;
    return { body: null, dropped: `${which} body not stored (${body.length} bytes): cannot be parsed to redact it: ${err.message}` };
  }
}

/** The request body as it is stored: credentials redacted when the exchange may carry them. */
export function storedRequestBody(ctx: ExchangeContext, body: Buffer | null): StoredBody {
  if (!body || !ctx.redact) return { body, dropped: null };
  const pairs = JSON.parse(ctx.head.requestHeaders) as Array<[string, string]>;
  return redactedBody(ctx.redact, headerValue(pairs, 'content-type'), isGzip(headerValue(pairs, 'content-encoding')), body, true);
}
