/**
 * networking/validation's validateIngressBackend (exactly one of a Service or a resource; the
 * Service's name a DNS-1035 label, its port a name or a number) and
 * validateIngressTypedLocalObjectReference (the resource backend and the IngressClass
 * parameters), as kube-apiserver v1.26 runs them. Pure.
 */
import { invalidField, requiredField, type FieldError } from './field-errors';
import { isDns1035Label, isDns1123Subdomain, isPathSegmentName } from './names';
import { isValidPortName, isValidPortNum } from './service-port-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** validateIngressBackend: `backend` is the IngressBackend at `path`. */
export function validateIngressBackend(backend: Obj, path: string): FieldError[] {
  const hasResource = isPlainObject(backend.resource);
  const hasService = isPlainObject(backend.service);
  if (hasResource && hasService) return [invalidField(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return validateTypedLocalObjectReference(backend.resource, `${path}.resource`);
  if (!hasService) return [invalidField(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const service: Obj = backend.service;
  const name = str(service.name);
  if (name.length === 0) errs.push(requiredField(`${path}.service.name`, ''));
  // ValidateServiceName: NameIsDNS1035Label.
  else for (const msg of isDns1035Label(name)) errs.push(invalidField(`${path}.service.name`, name, msg));
  const port: Obj = isPlainObject(service.port) ? service.port : {};
  const portName = str(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName.length > 0 && portNumber !== 0) errs.push(invalidField(path, '', 'cannot set both port name & port number'));
  else if (portName.length > 0) for (const msg of isValidPortName(portName)) errs.push(invalidField(`${path}.service.port.name`, portName, msg));
  else if (portNumber !== 0) for (const msg of isValidPortNum(portNumber)) errs.push(invalidField(`${path}.service.port.number`, portNumber, msg));
  else errs.push(requiredField(path, 'port name or number is required'));
  return errs;
}

/** validateIngressTypedLocalObjectReference: an optional API group, a kind and a name usable in a URL path. */
export function validateTypedLocalObjectReference(ref: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') {
    for (const msg of isDns1123Subdomain(ref.apiGroup)) errs.push(invalidField(`${path}.apiGroup`, ref.apiGroup, msg));
  }
  for (const key of ['kind', 'name'] as const) {
    const value = str(ref[key]);
    if (value === '') errs.push(requiredField(`${path}.${key}`, `${key} is required`));
    else for (const msg of isPathSegmentName(value)) errs.push(invalidField(`${path}.${key}`, value, msg));
  }
  return errs;
}
