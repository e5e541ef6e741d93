/**
 * Object names as kube-apiserver validates and generates them (apimachinery validation.IsDNS1123Subdomain,
 * IsDNS1123Label, IsDNS1035Label, path.ValidatePathSegmentName; names.SimpleNameGenerator). Pure:
 * randomness is injected.
 */

/** A source of floats in [0, 1). */
export type Random = () => number;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);

export const DNS1123_SUBDOMAIN_MESSAGE = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN_FMT}')`;
const DNS1123_LABEL_MESSAGE = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL_FMT}')`;
const DNS1035_LABEL_MESSAGE = `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL_FMT}')`;

export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(value)) errs.push(DNS1123_SUBDOMAIN_MESSAGE);
  return errs;
}

export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(value)) errs.push(DNS1123_LABEL_MESSAGE);
  return errs;
}

export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(value)) errs.push(DNS1035_LABEL_MESSAGE);
  return errs;
}

/** path.IsValidPathSegmentName: not `.` or `..`, no `/` or `%`. */
export function isPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (value.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
}

/** How a resource's names are checked: `prefix` (a generateName) may end in a dash. */
export type NameValidator = (name: string, prefix: boolean) => string[];

const maskTrailingDash = (name: string) => (name.length > 1 && name.endsWith('-') ? name.slice(0, -1) + 'a' : name);

const subdomain: NameValidator = (name, prefix) => isDns1123Subdomain(prefix ? maskTrailingDash(name) : name);
const label: NameValidator = (name, prefix) => isDns1123Label(prefix ? maskTrailingDash(name) : name);
const dns1035: NameValidator = (name, prefix) => isDns1035Label(prefix ? maskTrailingDash(name) : name);
const pathSegment: NameValidator = (name) => isPathSegmentName(name);

/** The name rule kube-apiserver applies per resource (`group/resource`); DNS subdomain for the rest. */
const NAME_RULES: Record<string, NameValidator> = {
  '/namespaces': label,
  '/services': dns1035,
  'rbac.authorization.k8s.io/roles': pathSegment,
  'rbac.authorization.k8s.io/clusterroles': pathSegment,
  'rbac.authorization.k8s.io/rolebindings': pathSegment,
  'rbac.authorization.k8s.io/clusterrolebindings': pathSegment,
};

export function nameValidatorFor(group: string, resource: string): NameValidator {
  return NAME_RULES[`${group}/${resource}`] ?? subdomain;
}

/** names.SimpleNameGenerator: the alphabet its 5-character suffixes are drawn from. */
export const NAME_SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATED_NAME_LENGTH = 63;
const RANDOM_LENGTH = 5;

/** `base` (cut to 58 characters) + 5 random characters. */
export function generateName(base: string, random: Random): string {
  const prefix = base.length > MAX_GENERATED_NAME_LENGTH - RANDOM_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH - RANDOM_LENGTH) : base;
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += NAME_SUFFIX_ALPHABET[Math.floor(random() * NAME_SUFFIX_ALPHABET.length)];
  return prefix + suffix;
}

/** A version-4 UUID from the injected generator. */
export function randomUid(random: Random): string {
  let out = '';
  for (let i = 0; i < 16; i++) {
    let b = Math.floor(random() * 256);
    if (i === 6) b = (b & 0x0f) | 0x40;
    else if (i === 8) b = (b & 0x3f) | 0x80;
    if (i === 4 || i === 6 || i === 8 || i === 10) out += '-';
    out += HEX_BYTES[b];
  }
  return out;
}

/** Two lowercase hex digits per byte value. */
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
