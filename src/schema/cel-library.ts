/**
 * The functions kube-apiserver v1.26 adds to CEL for CRD validation rules, on top of what the CEL
 * library itself has: the Kubernetes lists, regex and URL libraries
 * (k8s.io/apiserver/pkg/cel/library), the parts of cel-go's strings extension the library
 * lacks (`charAt`, `replace`) and cel-go's `string()` of timestamps and durations and `int()` of
 * timestamps. A function that fails throws an Error whose message is the text
 * cel-go's function returns. Pure.
 */
import type { Environment } from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { celLibrary } from './cel-module';
import { parseGoUrl, type ParsedUrl } from '../k8s/go-url';
import { goQuote } from '../k8s/resource-version';
import { re2RegExp } from '../k8s/re2-regexp';

/** A `kubernetes.URL` value: a URL `url()` accepted. */
export class CelUrl {
  constructor(readonly url: ParsedUrl) {}
}

const COMPARABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp'];

/** Registers the Kubernetes functions on `env` (returns it). */
export function withKubernetesLibrary(env: Environment): Environment {
  for (const t of COMPARABLE) {
    env.registerFunction(`list<${t}>.isSorted(): bool`, (l: List) => items(l).every((v, i, a) => i === 0 || compare(a[i - 1], v) <= 0));
    env.registerFunction(`list<${t}>.min(): ${t}`, (l: List) => extreme(items(l), 'min', -1));
    env.registerFunction(`list<${t}>.max(): ${t}`, (l: List) => extreme(items(l), 'max', 1));
  }
  // sum folds with CEL's own + (int and uint overflow are errors) from the type's zero.
  for (const [t, zero] of [['int', '0'], ['uint', '0u'], ['double', '0.0'], ['google.protobuf.Duration', "duration('0s')"]]) {
    env.registerFunction(`list<${t}>.sum(): ${t}`, (l: List) => items(l).reduce((a, b) => arithmetic().add(a, b), arithmetic().value(zero!)));
  }
  env.registerFunction('list<A>.indexOf(A): int', (l: List, v: unknown) => BigInt(listIndexOf(items(l), v, false)));
  env.registerFunction('list<A>.lastIndexOf(A): int', (l: List, v: unknown) => BigInt(listIndexOf(items(l), v, true)));

  env.registerFunction('string.find(string): string', (s: string, re: string) => regex(re).exec(s)?.[0] ?? '');
  env.registerFunction('string.findAll(string): list<string>', (s: string, re: string) => findAll(s, re, -1));
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, re: string, n: bigint) => findAll(s, re, Number(n)));

  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => charAt(s, Number(i)));
  env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => replace(s, from, to, -1));
  env.registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => replace(s, from, to, Number(n)));

  // cel-go's conversions the library lacks: a timestamp's RFC 3339 text (fraction without trailing zeros), its Unix seconds; a duration's seconds.
  env.registerFunction('string(google.protobuf.Timestamp): string', (t: Date) => t.toISOString().replace(/\.(\d*?)0*Z$/, (_m, f: string) => (f ? `.${f}Z` : 'Z')));
  env.registerFunction('string(google.protobuf.Duration): string', (d: object) => String(d));
  env.registerFunction('int(google.protobuf.Timestamp): int', (t: Date) => BigInt(Math.floor(t.getTime() / 1000)));

  env.registerType('kubernetes.URL', CelUrl);
  env.registerFunction('url(string): kubernetes.URL', (s: string) => {
    const parsed = requestUri(s);
    if (typeof parsed === 'string') throw new Error(`URL parse error during conversion from string: ${parsed}`);
    return new CelUrl(parsed);
  });
  env.registerFunction('isURL(string): bool', (s: string) => typeof requestUri(s) !== 'string');
  env.registerFunction('kubernetes.URL.getScheme(): string', (u: CelUrl) => u.url.scheme);
  env.registerFunction('kubernetes.URL.getHost(): string', (u: CelUrl) => u.url.host);
  env.registerFunction('kubernetes.URL.getHostname(): string', (u: CelUrl) => hostname(u.url.host));
  env.registerFunction('kubernetes.URL.getPort(): string', (u: CelUrl) => port(u.url.host));
  env.registerFunction('kubernetes.URL.getEscapedPath(): string', (u: CelUrl) => u.url.path);
  env.registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', (u: CelUrl) => query(u.url.rawQuery));
  return env;
}

/** A CEL list: an Array, or a Set (a list-type set or map list, see ./cel-value). */
type List<T = unknown> = T[] | Set<T>;

function items<T>(l: List<T>): T[] {
  return Array.isArray(l) ? l : [...l];
}

let shared: { add(a: unknown, b: unknown): unknown; value(expression: string): unknown } | undefined;

/** CEL's + (its overflow checks included) and constants, from the library itself. */
function arithmetic(): NonNullable<typeof shared> {
  if (shared) return shared;
  const env = new (celLibrary().Environment)().registerVariable('a', 'dyn').registerVariable('b', 'dyn');
  const plus = env.parse('a + b');
  const constants = new Map<string, unknown>();
  return (shared = {
    add: (a, b) => plus({ a, b }),
    value: (expression) => {
      if (!constants.has(expression)) constants.set(expression, env.evaluate(expression));
      return constants.get(expression);
    },
  });
}

function compare(a: unknown, b: unknown): number {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  const x = a as any;
  const y = b as any;
  const [va, vb] = typeof x?.valueOf === 'function' && typeof x !== 'bigint' ? [x.valueOf(), y.valueOf()] : [x, y];
  return va < vb ? -1 : va > vb ? 1 : 0;
}

/** Go's string order: by UTF-8 bytes, which is code point order (not UTF-16 units: U+FB00 < U+1F600). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function extreme(l: unknown[], name: string, sign: number): unknown {
  if (l.length === 0) throw new Error(`${name} called on empty list`);
  return l.reduce((best, v) => (compare(v, best) * sign > 0 ? v : best));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) return JSON.stringify(a, bigints) === JSON.stringify(b, bigints);
  return a === b;
}

const bigints = (_k: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v);

/** The lists library's indexOf (lastIndexOf with `last`): the first (last) index of an equal element, else -1. */
export function listIndexOf(l: unknown[], v: unknown, last: boolean): number {
  if (!last) return l.findIndex((x) => sameValue(x, v));
  for (let i = l.length - 1; i >= 0; i--) if (sameValue(l[i], v)) return i;
  return -1;
}

/** An RE2 pattern as a RegExp (./re2-regexp); one RE2 refuses fails as the library's regexp.Compile does. */
function regex(re: string, global = false): RegExp {
  const compiled = re2RegExp(re, global);
  if (typeof compiled === 'string') throw new Error(`Illegal regex: ${compiled}`);
  return compiled;
}

function findAll(s: string, re: string, limit: number): string[] {
  if (limit === 0) return [];
  const out: string[] = [];
  for (const m of s.matchAll(regex(re, true))) {
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

/** strings.charAt: the code point at index i, '' at the end, an error past it. */
function charAt(s: string, i: number): string {
  const points = [...s];
  if (i < 0 || i > points.length) throw new Error(`index out of range: ${i}`);
  return points[i] ?? '';
}

/** strings.Replace: an empty `from` matches before each code point and at the end; n < 0 replaces all. */
function replace(s: string, from: string, to: string, n: number): string {
  if (from === '') {
    const points = [...s];
    const k = n < 0 ? points.length + 1 : Math.min(n, points.length + 1);
    return points.map((p, i) => (i < k ? to + p : p)).join('') + (k > points.length ? to : '');
  }
  if (n < 0) return s.split(from).join(to);
  let out = s;
  let at = 0;
  for (let k = 0; k < n; k++) {
    const i = out.indexOf(from, at);
    if (i < 0) break;
    out = out.slice(0, i) + to + out.slice(i + from.length);
    at = i + to.length;
  }
  return out;
}

/** url.ParseRequestURI: an absolute URL or an absolute path, or its error (`parse "": empty url`, `parse "x:y": invalid URI for request`). */
function requestUri(s: string): ParsedUrl | string {
  if (s === '') return 'parse "": empty url';
  const parsed = parseGoUrl(s);
  const relative = typeof parsed === 'string' ? parsed.endsWith(': first path segment in URL cannot contain colon') : parsed.scheme === '' && !s.startsWith('/') && s !== '*';
  if (relative) return `parse ${goQuote(s)}: invalid URI for request`;
  return parsed;
}

/** url.URL.Hostname(): the host without its port, IPv6 brackets removed. */
function hostname(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') < 0 ? undefined : host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** url.URL.Port(): the digits after the last colon past the host, or ''. */
function port(host: string): string {
  const close = host.lastIndexOf(']');
  const colon = host.lastIndexOf(':');
  if (colon < 0 || colon < close) return '';
  const p = host.slice(colon + 1);
  return /^[0-9]*$/.test(p) ? p : '';
}

/** url.ParseQuery: `a=1&a=2&b` → {a: ['1', '2'], b: ['']}, keys and values unescaped ('+' is a space). */
function query(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const [k, v] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    const key = unescapeQuery(k);
    const value = unescapeQuery(v);
    if (key === undefined || value === undefined) continue;
    out.set(key, [...(out.get(key) ?? []), value]);
  }
  return out;
}

function unescapeQuery(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
