/**
 * The typed error that carries a metav1.Status (src/wire/status-types.ts), and its named
 * factories. Messages match a real kube-apiserver's (reference/apiserver-facts.md), because
 * clients log and sometimes parse them.
 */

import type { Status, StatusCause, StatusDetails } from '../wire/status-types';

export type { Status, StatusCause, StatusDetails } from '../wire/status-types';

/** An API error: an HTTP status code and the Status body a real apiserver would send. */
export class StatusError extends Error {
  override name = 'StatusError';
  constructor(readonly status: Status, readonly headers: Record<string, string> = {}) {
    super(status.message ?? status.reason ?? String(status.code));
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): string | undefined {
    return this.status.reason;
  }
}

/** Builds a Status with the apiserver's field order: kind, apiVersion, metadata, status, message, reason, details, code. */
export function failure(
  code: number,
  reason: string | undefined,
  message: string,
  details?: StatusDetails,
  metadata: Status['metadata'] = {},
): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message } as Status;
  if (reason) status.reason = reason;
  if (details) status.details = details;
  status.code = code;
  return status;
}

function error(code: number, reason: string | undefined, message: string, details?: StatusDetails, headers?: Record<string, string>): StatusError {
  return new StatusError(failure(code, reason, message, details), headers);
}

export const badRequest = (message: string) => error(400, 'BadRequest', message);

/** 500 with no reason, as the apiserver answers an unparsable resourceVersion or an etcd error. */
export const internalError = (message: string) => error(500, undefined, message);

/** `configmaps "x" not found`. `resource` is the plural resource name, as the apiserver puts it in `details.kind`. */
export function notFound(resource: string, name: string, group = ''): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  const details: StatusDetails = group ? { name, group, kind: resource } : { name, kind: resource };
  return error(404, 'NotFound', `${qualified} "${name}" not found`, details);
}

/** What the apiserver answers for a path it serves no resource at. */
export const resourceNotFound = () => error(404, 'NotFound', 'the server could not find the requested resource', {});

export function methodNotAllowed(message: string): StatusError {
  return error(405, 'MethodNotAllowed', message, {});
}

export function notAcceptable(accepted = 'application/json, application/yaml, application/vnd.kubernetes.protobuf'): StatusError {
  return error(406, 'NotAcceptable', `only the following media types are accepted: ${accepted}`);
}

export function conflict(resource: string, name: string, group: string, message: string): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  return error(409, 'Conflict', `Operation cannot be fulfilled on ${qualified} "${name}": ${message}`, { name, group: group || undefined, kind: resource });
}

/** 410 for a list at a compacted RV with Exact or limit. */
export const listTooOld = () => error(410, 'Expired', 'The resourceVersion for the provided list is too old.');

/** The watch ERROR event's Status: `too old resource version: N (M)`, M = oldest available RV - 1. */
export const watchTooOld = (requested: string, oldest: string) =>
  failure(410, 'Expired', `too old resource version: ${requested} (${oldest})`);

export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** 410 for a continue token below the compaction floor; `inconsistentContinue` is the rv:-1 token that still works. */
export function continueExpired(inconsistentContinue: string): StatusError {
  return new StatusError(failure(410, 'Expired', CONTINUE_EXPIRED_MESSAGE, undefined, { continue: inconsistentContinue }));
}

/** get/list with an RV ahead of the store, after the bounded wait. */
export function tooLargeResourceVersion(requested: string, current: string, retryAfterSeconds = 1): StatusError {
  return error(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** Exact or paged list at a future RV: etcd's own error, passed through as a 500. */
export const futureRevision = () => internalError('etcdserver: mvcc: required revision is a future revision');

/** 422 on ListOptions, one cause per violation, message joined the way apimachinery's field errors are. */
export function invalidListOptions(causes: StatusCause[]): StatusError {
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return error(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${joined}`, {
    group: 'meta.k8s.io',
    kind: 'ListOptions',
    causes,
  });
}

export function tooManyRequests(message = 'Too many requests, please try again later.', retryAfterSeconds = 1): StatusError {
  return error(429, 'TooManyRequests', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
}

export function serviceUnavailable(message: string): StatusError {
  return error(503, 'ServiceUnavailable', message);
}

/** Any code, with the reason the apiserver uses for it. */
export function statusFor(code: number, message?: string, retryAfterSeconds?: number): StatusError {
  const reason = REASONS[code];
  let details: StatusDetails | undefined = retryAfterSeconds !== undefined ? { retryAfterSeconds } : undefined;
  const headers = retryAfterSeconds !== undefined ? { 'Retry-After': String(retryAfterSeconds) } : undefined;
  let text = message ?? DEFAULT_MESSAGES[code] ?? `the server responded with status ${code}`;
  if (code === 500) {
    // NewInternalError(err): message `Internal error occurred: ${err}`, details.causes [{message: err}].
    const cause = text.startsWith(INTERNAL_PREFIX) ? text.slice(INTERNAL_PREFIX.length) : text;
    text = INTERNAL_PREFIX + cause;
    details = { causes: [{ message: cause }], ...details };
  }
  return error(code, reason, text, details, headers);
}

const INTERNAL_PREFIX = 'Internal error occurred: ';

const REASONS: Record<number, string | undefined> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

const DEFAULT_MESSAGES: Record<number, string> = {
  401: 'Unauthorized',
  429: 'Too many requests, please try again later.',
  500: 'Internal error occurred: injected fault',
  503: 'The server is currently unable to handle the request',
  504: 'Timeout: request did not complete within the allowed duration',
};

export function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}

/**
 * get/list with an RV ahead of storage on a path that does not wait (etcd: NotOlderThan with
 * limit; the apiserver without watch cache): 504 at once, no Retry-After (transcripts d1n, d2n).
 */
export function tooLargeResourceVersionNoRetry(requested: string, current: string): StatusError {
  return error(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
  });
}
