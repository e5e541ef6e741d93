import { createHash } from 'node:crypto';
import { parseBool } from '../k8s/request-info';
import { representationOf } from './representation';

/** Header lists as the recording keeps them (`[[name, value], …]`) or as Node parses them. */
export type HeaderSource = ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string | string[] | undefined>>;

export interface RawRequest {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  headers: HeaderSource;
  body?: Buffer | null;
}

export interface KeyOptions {
  /** Query parameters left out of the key (`resourceVersion` here means the list-then-watch rule). */
  ignoreParams: ReadonlySet<string>;
  /** Lower-case names of headers matched besides the representation. */
  matchHeaders: readonly string[];
}

/**
 * A request reduced to what matching compares. Two requests match when their `key`s are equal;
 * the fields are kept so the matcher can say which part differs.
 */
export interface NormalisedRequest {
  method: string;
  /** Path with each segment's percent-encoding made canonical. */
  path: string;
  /** Query parameters sorted by name, booleans as `true`/`false`, ignored ones left out. */
  query: ReadonlyArray<readonly [string, string]>;
  /** A watch (`watch=true` or the `/watch/` path prefix). */
  watch: boolean;
  /** The watch's `resourceVersion` (in `query` too), when the list-then-watch rule applies to it. */
  watchRv?: string;
  representation: string;
  /** `media/type digest` of the request body ('' without one); JSON is canonicalised first. */
  body: string;
  /** `name: value` of each matched header. */
  headers: readonly string[];
  key: string;
  /** A watch's key without `resourceVersion`: what the list-then-watch rule matches on. */
  looseKey?: string;
}

/** Parameters whose values are booleans; clients spell true as `true`, `1` or `True`. */
const BOOLEAN_PARAMS = new Set([
  'watch', 'allowWatchBookmarks', 'sendInitialEvents', 'pretty', 'follow', 'previous', 'timestamps',
  'insecureSkipTLSVerifyBackend', 'stdin', 'stdout', 'stderr', 'tty', 'orphanDependents', 'export', 'exact',
  'ignoreStoreReadErrorWithClusterBreakingPotential',
]);
const FALSE_VALUES = new Set(['0', 'f', 'F', 'false', 'False', 'FALSE']);

export function keyOptions(ignoreParams: readonly string[], matchHeaders: readonly string[]): KeyOptions {
  return {
    ignoreParams: new Set(ignoreParams.filter((p) => p !== '')),
    matchHeaders: matchHeaders.filter((h) => h !== '').map((h) => h.toLowerCase()),
  };
}

export function normaliseRequest(request: RawRequest, options: KeyOptions): NormalisedRequest {
  const method = request.method.toUpperCase();
  const q = request.url.indexOf('?');
  const path = canonicalPath(q < 0 ? request.url : request.url.slice(0, q));
  const query: [string, string][] = [];
  let watchParam = false;
  let rv: string | undefined;
  if (q >= 0) {
    for (const [name, raw] of new URLSearchParams(request.url.slice(q + 1))) {
      const value = BOOLEAN_PARAMS.has(name) ? canonicalBool(raw) : raw;
      if (name === 'watch') watchParam = value === 'true';
      if (name === 'resourceVersion') rv = value;
      if (name !== 'resourceVersion' && options.ignoreParams.has(name)) continue;
      query.push([name, value]);
    }
    query.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  const watch = (method === 'GET' || method === 'HEAD') && (watchParam || path.includes('/watch/'));
  const headers = headerLookup(request.headers);
  const representation = representationOf(headers('accept'));
  const body = bodyDigest(request.body, headers('content-type'));
  const matched = options.matchHeaders.map((name) => `${name}: ${headers(name) ?? ''}`);

  const head = `${method} ${path}`;
  const tail = `\n${representation}\n${body}\n${matched.join('\n')}`;
  const key = `${head}?${queryString(query)}${tail}`;
  const normalised: NormalisedRequest = { method, path, query, watch, representation, body, headers: matched, key };
  if (watch && rv !== undefined && options.ignoreParams.has('resourceVersion')) {
    normalised.watchRv = rv;
    normalised.looseKey = `${head}?${queryString(query.filter(([name]) => name !== 'resourceVersion'))}${tail}`;
  }
  return normalised;
}

export function queryString(query: ReadonlyArray<readonly [string, string]>): string {
  let out = '';
  for (const [name, value] of query) out += `${out ? '&' : ''}${name}=${value}`;
  return out;
}

function canonicalBool(value: string): string {
  if (parseBool(value)) return 'true';
  return FALSE_VALUES.has(value) ? 'false' : value;
}

/** Characters encodeURIComponent leaves alone, and `/`: a path made only of these is already canonical. */
const CANONICAL_PATH = /^[A-Za-z0-9\-_.!~*'()/]*$/;

function canonicalPath(path: string): string {
  if (CANONICAL_PATH.test(path)) return path;
  return path.split('/').map((segment) => {
    try {
      return encodeURIComponent(decodeURIComponent(segment));
    } catch {
      return segment;
    }
  }).join('/');
}

/** Case-insensitive header lookup over either header shape; repeated headers joined with ', '. */
export function headerLookup(source: HeaderSource): (name: string) => string | undefined {
  if (Array.isArray(source)) {
    const pairs = source as ReadonlyArray<readonly [string, string]>;
    return (name) => {
      let found: string | undefined;
      for (const [n, v] of pairs) {
        if (n.length === name.length && n.toLowerCase() === name) found = found === undefined ? v : `${found}, ${v}`;
      }
      return found;
    };
  }
  const record = source as Readonly<Record<string, string | string[] | undefined>>;
  return (name) => {
    const v = record[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
}

/** `media/type digest`: JSON bodies are parsed and re-serialised with sorted keys first, so formatting and key order do not count. */
function bodyDigest(body: Buffer | null | undefined, contentType: string | undefined): string {
  if (!body || body.length === 0) return '';
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  let canonical: Buffer | string = body;
  if (type.includes('json') || type === '' || type === 'application/yaml') {
    try {
      canonical = canonicalJson(JSON.parse(body.toString('utf8')));
    } catch {
      canonical = body;
    }
  }
  return `${type || 'none'} ${createHash('sha1').update(canonical).digest('base64url')}`;
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as object).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}
