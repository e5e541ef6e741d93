/**
 * The part of Go's net/url.Parse that the apiserver's rules depend on: scheme, opaque part,
 * authority (user info, host, port), path, query and fragment, and Parse's errors for the
 * malformed URLs a manifest is likely to hold (missing scheme, control characters, a bad port, a
 * bad %-escape). Pure.
 */
import { goQuote } from './resource-version';

/** The pieces of a parsed URL; `path` as written (still %-escaped), `host` unescaped. */
export interface ParsedUrl {
  scheme: string;
  /** The text after `scheme:` of a URL whose rest does not start with a slash (`mailto:x`). */
  opaque?: string;
  host: string;
  user?: string;
  path: string;
  rawQuery: string;
  fragment: string;
}

/** net/url.Parse: the parts of the URL, or the error's text (`parse "…": …`). */
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
  const url: ParsedUrl = { scheme: '', host: '', path: '', rawQuery: '', fragment: '' };
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
    if (url.scheme !== '') return { ...url, opaque: rest }; // opaque: no host
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
  url.path = rest;
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
