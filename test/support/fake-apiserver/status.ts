/**
 * metav1.Status bodies exactly as a kube-apiserver v1.26+ writes them (field order: kind, apiVersion,
 * metadata, status, message, reason, details, code). Independent of src/k8s on purpose: the fake
 * is the reference the real code is tested against.
 */

export interface FakeStatusCause {
  reason: string;
  message: string;
  field?: string;
}

export interface FakeStatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: FakeStatusCause[];
  retryAfterSeconds?: number;
}

export interface FakeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string };
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: FakeStatusDetails;
  code: number;
}

/** A Status answer: thrown by handlers, written by the router. */
export class ApiError extends Error {
  constructor(readonly status: FakeStatus, readonly headers: Record<string, string> = {}) {
    super(status.message);
  }
}

export function statusBody(code: number, reason: string | undefined, message: string, details?: FakeStatusDetails, metadata: FakeStatus['metadata'] = {}): FakeStatus {
  const s: FakeStatus = { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message } as FakeStatus;
  if (reason) s.reason = reason;
  if (details) s.details = details;
  s.code = code;
  return s;
}

const fail = (code: number, reason: string | undefined, message: string, details?: FakeStatusDetails, headers?: Record<string, string>) =>
  new ApiError(statusBody(code, reason, message, details), headers);

const qualified = (resource: string, group: string) => (group ? `${resource}.${group}` : resource);
const detailsFor = (resource: string, group: string, name: string): FakeStatusDetails =>
  group ? { name, group, kind: resource } : { name, kind: resource };

export const notFound = (resource: string, group: string, name: string) =>
  fail(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, detailsFor(resource, group, name));

export const pathNotFound = () => fail(404, 'NotFound', 'the server could not find the requested resource', {});

export const alreadyExists = (resource: string, group: string, name: string) =>
  fail(409, 'AlreadyExists', `${qualified(resource, group)} "${name}" already exists`, detailsFor(resource, group, name));

export const conflict = (resource: string, group: string, name: string) =>
  fail(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(resource, group)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    detailsFor(resource, group, name),
  );

export const badRequest = (message: string) => fail(400, 'BadRequest', message);

export const unauthorized = () => fail(401, 'Unauthorized', 'Unauthorized');

/** A non-API error turned into a Status: code 500, no reason (how etcd and parse errors surface). */
export const internal = (message: string) => fail(500, undefined, message);

export const futureRevision = () => internal('etcdserver: mvcc: required revision is a future revision');

export const invalidResourceVersion = (rv: string) =>
  internal(`resourceVersion: Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": invalid syntax`);

export const listTooOld = () => fail(410, 'Expired', 'The resourceVersion for the provided list is too old.');

export const EXPIRED_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export const continueExpired = (inconsistentToken: string) =>
  new ApiError(statusBody(410, 'Expired', EXPIRED_CONTINUE_MESSAGE, undefined, { continue: inconsistentToken }));

/** The watch cache's answer to a get/list waiting for an RV it never reached (`retryAfter` 1 with the cache on). */
export function tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds = 1): ApiError {
  const details: FakeStatusDetails = { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] };
  if (retryAfterSeconds) details.retryAfterSeconds = retryAfterSeconds;
  return fail(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    details,
    retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
}

/** 422 for ListOptions, one cause per violation, as `field.ErrorList.ToAggregate()` words it. */
export function invalidListOptions(causes: FakeStatusCause[]): ApiError {
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return fail(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${joined}`, { group: 'meta.k8s.io', kind: 'ListOptions', causes });
}

export const forbiddenCause = (field: string, detail: string): FakeStatusCause => ({
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
  field,
});

export const notSupportedCause = (field: string, value: string, supported: string[]): FakeStatusCause => ({
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: "${value}": supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
  field,
});

export const invalidObject = (kind: string, group: string, name: string, causes: FakeStatusCause[]): ApiError => {
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const details: FakeStatusDetails = group ? { name, group, kind, causes } : { name, kind, causes };
  return fail(422, 'Invalid', `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${joined}`, details);
};

export const NOT_ACCEPTABLE_MESSAGE =
  'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

export const notAcceptable = () => fail(406, 'NotAcceptable', NOT_ACCEPTABLE_MESSAGE);

export const unsupportedMediaType = (contentType: string) =>
  fail(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got ${contentType})`);

export const methodNotSupported = (resource: string, group: string, verb: string) =>
  fail(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualified(resource, group)}"`);

export function success(resource: string, group: string, name: string, uid: string) {
  const details: FakeStatusDetails = group ? { name, group, kind: resource, uid } : { name, kind: resource, uid };
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

/** The watch cache's ERROR event object for a watch older than its window. */
export const watchTooOld = (requested: number, oldest: number): FakeStatus =>
  statusBody(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
