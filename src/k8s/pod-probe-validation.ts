/**
 * core/validation's validateProbe, validateLifecycle and validateHandler (v1.26): exactly one
 * handler (exec, httpGet, tcpSocket, grpc — a lifecycle hook has no grpc), each handler's own
 * fields, and a probe's numbers. Runs after defaulting, so a probe's zero timeouts and thresholds
 * already carry their defaults. Pure.
 */
import { forbiddenField, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { isPlainObject } from '../wire/json-object';
import { validatePortNumOrName } from './service-port-validation';

type Obj = Record<string, any>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;
const HTTP_HEADER_MESSAGE = "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";

function validateHttpGet(http: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(http.path).length === 0) errs.push(requiredField(`${path}.path`, ''));
  errs.push(...validatePortNumOrName(http.port, `${path}.port`));
  const scheme = str(http.scheme);
  if (!HTTP_SCHEMES.includes(scheme)) errs.push(notSupportedField(`${path}.scheme`, scheme, HTTP_SCHEMES));
  for (const header of Array.isArray(http.httpHeaders) ? http.httpHeaders : []) {
    const name = str(isPlainObject(header) ? header.name : undefined);
    if (!HTTP_HEADER_NAME.test(name)) errs.push(invalidField(`${path}.httpHeaders`, name, HTTP_HEADER_MESSAGE));
  }
  return errs;
}

const HANDLERS: Array<[string, (h: Obj, path: string) => FieldError[]]> = [
  ['exec', (h, path) => (Array.isArray(h.command) && h.command.length > 0 ? [] : [requiredField(`${path}.command`, '')])],
  ['httpGet', validateHttpGet],
  ['tcpSocket', (h, path) => validatePortNumOrName(h.port, `${path}.port`)],
  ['grpc', (h, path) => validatePortNumOrName(int(h.port), `${path}.port`)],
];

/** validateHandler: the first handler set is validated, any further one is Forbidden. */
function validateHandler(handler: Obj, path: string, allowed: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [name, validate] of HANDLERS) {
    if (!allowed.includes(name) || !isPlainObject(handler[name])) continue;
    if (count > 0) {
      errs.push(forbiddenField(`${path}.${name}`, 'may not specify more than 1 handler type'));
    } else {
      count++;
      errs.push(...validate(handler[name], `${path}.${name}`));
    }
  }
  if (count === 0) errs.push(requiredField(path, 'must specify a handler type'));
  return errs;
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket'];

/** validateProbe: nothing for an absent probe. */
export function validateProbe(probe: unknown, path: string): FieldError[] {
  if (!isPlainObject(probe)) return [];
  const errs = validateHandler(probe, path, PROBE_HANDLERS);
  for (const field of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    const value = int(probe[field]);
    if (value < 0) errs.push(invalidField(`${path}.${field}`, value, 'must be greater than or equal to 0'));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0) errs.push(invalidField(`${path}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  return errs;
}

/** validateLifecycle: postStart, then preStop. */
export function validateLifecycle(lifecycle: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isPlainObject(lifecycle.postStart)) errs.push(...validateHandler(lifecycle.postStart, `${path}.postStart`, LIFECYCLE_HANDLERS));
  if (isPlainObject(lifecycle.preStop)) errs.push(...validateHandler(lifecycle.preStop, `${path}.preStop`, LIFECYCLE_HANDLERS));
  return errs;
}
