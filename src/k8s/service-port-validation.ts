/**
 * core/validation's validateServicePort and the apimachinery port checks it uses
 * (IsValidPortNum, IsValidPortName, ValidatePortNumOrName for targetPort). Pure.
 */
import { invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { isDns1123Label } from './names';
import { isQualifiedName } from './object-meta-validation';

type Obj = Record<string, any>;

export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** validation.IsValidPortNum. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** validation.IsValidPortName (an IANA_SVC_NAME). */
export function isValidPortName(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name.startsWith('-') || name.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** ValidatePortNumOrName: an int-or-string port. */
export function validatePortNumOrName(port: unknown, field: string): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((msg) => invalidField(field, port, msg));
  const n = typeof port === 'number' ? port : 0;
  return isValidPortNum(n).map((msg) => invalidField(field, n, msg));
}

/** validateServicePort: `names` collects the names seen so far; `requireName` when the Service has more than one port. */
export function validateServicePort(port: Obj, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof port.name === 'string' ? port.name : '';
  if (requireName && name.length === 0) errs.push(requiredField(`${path}.name`, ''));
  else if (name.length !== 0) {
    for (const msg of isDns1123Label(name)) errs.push(invalidField(`${path}.name`, name, msg));
    if (names.has(name)) errs.push({ type: 'Duplicate', field: `${path}.name`, value: name });
    else names.add(name);
  }
  const num = typeof port.port === 'number' ? port.port : 0;
  for (const msg of isValidPortNum(num)) errs.push(invalidField(`${path}.port`, num, msg));
  if (!port.protocol) errs.push(requiredField(`${path}.protocol`, ''));
  else if (!PORT_PROTOCOLS.includes(port.protocol)) errs.push(notSupportedField(`${path}.protocol`, String(port.protocol), PORT_PROTOCOLS));
  errs.push(...validatePortNumOrName(port.targetPort, `${path}.targetPort`));
  if (typeof port.appProtocol === 'string') {
    for (const msg of isQualifiedName(port.appProtocol)) errs.push(invalidField(`${path}.appProtocol`, port.appProtocol, msg));
  }
  return errs;
}
