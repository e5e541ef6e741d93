import { requestInfo, type RequestInfo } from '../../k8s/request-info';
import { isGzip } from '../../wire/gzip';
import { isProtobuf } from '../../wire/media-types';
import { redactSecretsJson, redactSecretsProtobuf } from './redact-secrets';
import type { ExchangeHead } from './writer-protocol';

/** What the writer knows about an exchange while it decodes and stores it. */
export interface ExchangeContext {
  head: ExchangeHead;
  info: RequestInfo;
  responseContentType: string | undefined;
  responseGzip: boolean;
  /** Secret values are to be redacted from what is stored. */
  redact: boolean;
}

export function exchangeContext(head: ExchangeHead, keepSecrets: boolean): ExchangeContext {
  const info = requestInfo(head.method, head.url);
  const responseHeaders = head.responseHeaders ? (JSON.parse(head.responseHeaders) as Array<[string, string]>) : [];
  return {
    head,
    info,
    responseContentType: headerValue(responseHeaders, 'content-type'),
    responseGzip: isGzip(headerValue(responseHeaders, 'content-encoding')),
    redact: !keepSecrets && info.resource === 'secrets',
  };
}

export function headerValue(pairs: Array<[string, string]>, name: string): string | undefined {
  for (const [k, v] of pairs) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** A Secret body (request or response, JSON or protobuf, not compressed) with its values redacted, or null if unchanged. */
export function redactBody(contentType: string | undefined, body: Buffer): Buffer | null {
  try {
    return isProtobuf(contentType) ? redactSecretsProtobuf(body) : redactSecretsJson(body);
  } catch {
    return null; // not decodable: stored as received, the decode error is noted when indexing
  }
}

/** The request body as it is stored: Secret values redacted when the exchange is about Secrets. */
export function storedRequestBody(ctx: ExchangeContext, body: Buffer | null): Buffer | null {
  if (!body || !ctx.redact) return body;
  const pairs = JSON.parse(ctx.head.requestHeaders) as Array<[string, string]>;
  if (isGzip(headerValue(pairs, 'content-encoding'))) return body;
  return redactBody(headerValue(pairs, 'content-type'), body) ?? body;
}
