/**
 * A webhook's clientConfig as the apiserver checks it (k8s.io/apiserver/pkg/util/webhook:
 * ValidateWebhookURL, ValidateWebhookService), with the part of Go's net/url.Parse those rules
 * depend on: scheme, authority (user info, host, port), query and fragment, and Parse's errors
 * for the malformed URLs a manifest is likely to hold (missing scheme, control characters, a bad
 * port, a bad %-escape). Pure.
 */
import { invalidField, requiredField, type FieldError } from './field-errors';
import { isDns1123Subdomain } from './names';
import { isPlainObject } from '../wire/json-object';
import { goQuote } from './resource-version';

type Obj = Record<string, any>;

const FORM = '; desired format: https://host[/path]';

/** The pieces of a parsed URL the webhook rules read. */
interface ParsedUrl {
  scheme: string;
  host: string;
  user?: string;
  rawQuery: string;
  fragment: string;
}

/** The exactly-one-of url/service rule, then the URL's or the service's own rules. */
export function validateWebhookClientConfig(clientConfig: unknown, path: string): FieldError[] {
  const cc: Obj = isPlainObject(clientConfig) ? clientConfig : {};
  const hasUrl = typeof cc.url === 'string';
  const hasService = isPlainObject(cc.service);
  if (hasUrl === hasService) return [requiredField(path, 'exactly one of url or service is required')];
  if (hasUrl) return validateWebhookUrl(cc.url, `${path}.url`);
  const s = cc.service as Obj;
  // The Go call passes the service's name as the namespace argument and its namespace as the name.
  return validateWebhookService(`${path}.service`, String(s.name ?? ''), String(s.namespace ?? ''), typeof s.path === 'string' ? s.path : undefined, Number(s.port ?? 0));
}

/** ValidateWebhookURL with forceHttps. */
export function validateWebhookUrl(url: string, path: string): FieldError[] {
  const parsed = parseGoUrl(url);
  if (typeof parsed === 'string') return [requiredField(path, `url must be a valid URL: ${parsed}${FORM}`)];
  const errs: FieldError[] = [];
  if (parsed.scheme !== 'https') errs.push(invalidField(path, parsed.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (parsed.host.length === 0) errs.push(invalidField(path, parsed.host, `host must be provided${FORM}`));
  if (parsed.user !== undefined) errs.push(invalidField(path, parsed.user, 'user information is not permitted in the URL'));
  if (parsed.fragment.length !== 0) errs.push(invalidField(path, parsed.fragment, 'fragments are not permitted in the URL'));
  if (parsed.rawQuery.length !== 0) errs.push(invalidField(path, parsed.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService(fldPath, namespace, name, path, port), arguments in Go's order. */
export function validateWebhookService(path: string, namespace: string, name: string, urlPath: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(requiredField(`${path}.name`, 'service name is required'));
  if (namespace.length === 0) errs.push(requiredField(`${path}.namespace`, 'service namespace is required'));
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) errs.push(invalidField(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (urlPath === undefined || urlPath === '/' || urlPath.length === 0) return errs;
  const field = `${path}.path`;
  if (urlPath === '//') return [...errs, invalidField(field, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalidField(field, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalidField(field, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDns1123Subdomain(step)) errs.push(invalidField(field, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** net/url.Parse: the parts the rules read, or the error's text (`parse "…": …`). */
export function parseGoUrl(raw: string): ParsedUrl | string {
  const hash = raw.indexOf('#');
  const beforeFragment = hash < 0 ? raw : raw.slice(0, hash);
  const parsed = parseWithoutFragment(beforeFragment);
  if (typeof parsed === 'string') return `parse ${goQuote(beforeFragment)}: ${parsed}`;
  if (hash < 0) return parsed;
  const fragment = unescape(raw.slice(hash + 1));
  if (fragment === undefined) return `parse ${goQuote(raw)}: ${escapeError(raw.slice(hash + 1))}`;
  return { ...parsed, fragment };
}

function parseWithoutFragment(raw: string): ParsedUrl | string {
  if (/[\x00-\x1f\x7f]/.test(raw)) return 'net/url: invalid control character in URL';
  const url: ParsedUrl = { scheme: '', host: '', rawQuery: '', fragment: '' };
  if (raw === '*') return url;
  const scheme = getScheme(raw);
  if (typeof scheme === 'string') return scheme;
  url.scheme = scheme.scheme.toLowerCase();
  let rest = scheme.rest;
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) [rest, url.rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return url; // opaque: no host
    if (rest.split('/')[0]!.includes(':')) return 'first path segment in URL cannot contain colon';
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash >= 0 ? authority.slice(slash) : '';
    if (slash >= 0) authority = authority.slice(0, slash);
    const at = authority.lastIndexOf('@');
    const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (host.error !== undefined) return host.error;
    url.host = host.host;
    if (at >= 0) {
      const user = userinfo(authority.slice(0, at));
      if (user.error !== undefined) return user.error;
      url.user = user.text;
    }
  }
  if (unescape(rest) === undefined) return escapeError(rest);
  return url;
}

function getScheme(raw: string): { scheme: string; rest: string } | string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') return i === 0 ? 'missing protocol scheme' : { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

function parseHost(host: string): { host: string; error?: string } {
  let colonPort = '';
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return { host: '', error: "missing ']' in host" };
    colonPort = host.slice(close + 1);
  } else if (host.lastIndexOf(':') >= 0) colonPort = host.slice(host.lastIndexOf(':'));
  if (colonPort !== '' && !/^:[0-9]*$/.test(colonPort)) return { host: '', error: `invalid port ${goQuote(colonPort)} after host` };
  // In a host, %-escapes are for non-ASCII bytes (and %25), and only these ASCII characters may stand as they are.
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c === 0x25) {
      if (!/^[0-9A-Fa-f]{2}$/.test(host.slice(i + 1, i + 3))) return { host: '', error: escapeError(host.slice(i)) };
      if (parseInt(host[i + 1]!, 16) < 8 && host.slice(i, i + 3) !== '%25') return { host: '', error: `invalid URL escape ${goQuote(host.slice(i, i + 3))}` };
      i += 2;
    } else if (c < 0x80 && !/[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]/.test(host[i]!)) return { host: '', error: `invalid character ${goQuote(host[i]!)} in host name` };
  }
  return { host: unescape(host)! };
}

/** parseAuthority's user info, printed as Userinfo.String() prints it: user and password re-escaped. */
function userinfo(raw: string): { text: string; error?: string } {
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(raw)) return { text: '', error: 'net/url: invalid userinfo' };
  const colon = raw.indexOf(':');
  const parts = colon < 0 ? [raw] : [raw.slice(0, colon), raw.slice(colon + 1)];
  const decoded = parts.map(unescape);
  if (decoded.some((p) => p === undefined)) return { text: '', error: escapeError(raw) };
  return { text: decoded.map((p) => escapeUserPassword(p!)).join(':') };
}

/** url.escape in encodeUserPassword mode. */
function escapeUserPassword(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~$&+,;=]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** %XX decoding (the bytes read as UTF-8); undefined where a `%` is not followed by two hex digits. */
function unescape(s: string): string | undefined {
  if (!/^(?:[^%]|%[0-9A-Fa-f]{2})*$/.test(s)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; ) {
    if (s[i] === '%') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = s.codePointAt(i)!;
      bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** url.EscapeError: the first bad `%` sequence (at most three bytes). */
function escapeError(s: string): string {
  const m = /%(?![0-9A-Fa-f]{2})/.exec(s);
  const bad = m ? s.slice(m.index, m.index + 3) : s;
  return `invalid URL escape ${goQuote(bad)}`;
}
