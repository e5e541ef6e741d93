/**
 * The Status errors of writes, with the messages, reasons and details a real kube-apiserver
 * v1.26 sends (reference/apiserver-facts-writes.md, transcripts w1–w5). Pure.
 */
import { aggregateText, toCause, type FieldError } from './field-errors';
import { StatusError, failure, type StatusDetails } from './status';

function error(code: number, reason: string | undefined, message: string, details?: StatusDetails): StatusError {
  return new StatusError(failure(code, reason, message, details));
}

/** `ConfigMap "x" is invalid: …` (422): Kind (group-qualified) in message and details, one cause per field error. */
export function invalidObject(kind: string, group: string, name: string, errors: readonly FieldError[]): StatusError {
  const qualified = group ? `${kind}.${group}` : kind;
  const details: StatusDetails = {};
  if (name) details.name = name;
  if (group) details.group = group;
  if (kind) details.kind = kind;
  details.causes = errors.map(toCause);
  return error(422, 'Invalid', `${qualified} "${name}" is invalid: ${aggregateText(errors)}`, details);
}

/** `CreateOptions.meta.k8s.io "" is invalid: …` (422). */
export const invalidOptions = (kind: string, errors: readonly FieldError[]) => invalidObject(kind, 'meta.k8s.io', '', errors);

/** 409 AlreadyExists: `configmaps "cm-a" already exists`, details kind = plural resource. */
export function alreadyExists(resource: string, group: string, name: string): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  return error(409, 'AlreadyExists', `${qualified} "${name}" already exists`, group ? { name, group, kind: resource } : { name, kind: resource });
}

/** 409 Conflict `Operation cannot be fulfilled on <what> "name": <message>`; `what` is the plural (or Kind for delete preconditions). */
export function writeConflict(what: string, group: string, name: string, message: string): StatusError {
  const qualified = group ? `${what}.${group}` : what;
  return error(409, 'Conflict', `Operation cannot be fulfilled on ${qualified} "${name}": ${message}`, group ? { name, group, kind: what } : { name, kind: what });
}

export const OBJECT_MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

/** 403 `configmaps "x" is forbidden: …`, with optional causes. */
export function forbidden(resource: string, group: string, name: string, message: string, causes?: StatusDetails['causes']): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  const details: StatusDetails = group ? { name, group, kind: resource } : { name, kind: resource };
  if (causes) details.causes = causes;
  return error(403, 'Forbidden', `${qualified} "${name}" is forbidden: ${message}`, details);
}

export function namespaceTerminating(resource: string, group: string, name: string, namespace: string): StatusError {
  return forbidden(resource, group, name, `unable to create new content in namespace ${namespace} because it is being terminated`, [
    { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' },
  ]);
}

/** 400 with only a message (the handlers' NewBadRequest). */
export const badRequestMessage = (message: string) => error(400, 'BadRequest', message);

/** 413 for a body over the apiserver's 3 MiB limit. */
export const entityTooLarge = (limit: number) => error(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);

export const UNKNOWN_BODY_FORMAT = 'the body of the request was in an unknown format - accepted media types include: ';

/** 415 for a create/update body in a format the resource does not decode. */
export const unsupportedBodyType = (accepted: readonly string[]) => error(415, 'UnsupportedMediaType', UNKNOWN_BODY_FORMAT + accepted.join(', '));

/** 415 for a PATCH content type that is no patch type at all. */
export const unsupportedPatchType = () => error(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});

/** 422 for any JSON patch that cannot be applied: the cause is not in the body. */
export const patchRejected = () => error(422, 'Invalid', 'the server rejected our request due to an error in our request', {});

/** 500 with only a message and no reason (storage-layer errors passed through). */
export const storageError = (message: string) => error(500, undefined, message);

/** 405 for POST to an item URL. */
export const methodNotAllowedHere = () => error(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

/** The 201 Status body of a create that stores nothing of its own (a Binding, an Eviction). */
export function createdSuccess(): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}

/** The 200 Status body of a delete that removed the object at once (it has no `code`). */
export function deleteSuccess(resource: string, group: string, name: string, uid: string): Record<string, unknown> {
  const details: StatusDetails = group ? { name, group, kind: resource, uid } : { name, kind: resource, uid };
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

/** 409 Conflict of a server-side apply: the message lists the conflicts, one `FieldManagerConflict` cause each, no name or kind. */
export function applyConflict(message: string, causes: Array<{ message: string; field: string }>): StatusError {
  return error(409, 'Conflict', message, { causes: causes.map((c) => ({ reason: 'FieldManagerConflict', message: c.message, field: c.field })) });
}
