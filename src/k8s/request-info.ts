/**
 * What a request is, from its method and URL, the way kube-apiserver's RequestInfoFactory reads it.
 * Pure: no I/O.
 */

export const RESOURCE_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export type ResourceVerb = (typeof RESOURCE_VERBS)[number];
/** `connect` for upgrades and streaming subresources (exec, attach, portforward, log, proxy). */
export type RequestVerb = ResourceVerb | 'connect' | 'discovery' | 'nonresource';

export interface RequestInfo {
  isResourceRequest: boolean;
  verb: RequestVerb;
  path: string;
  /** `api` or `apis`, '' for non-resource paths. */
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  /** '' for cluster-scoped requests and all-namespaces lists. */
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  query: URLSearchParams;
}

const CONNECT_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Go's strconv.ParseBool truth values; clients send `true`, `1` and (Python) `True`. */
export function parseBool(value: string | null | undefined): boolean {
  return value === '1' || value === 't' || value === 'T' || value === 'true' || value === 'True' || value === 'TRUE';
}

export function requestInfo(method: string, url: string): RequestInfo {
  const { path, query } = splitUrl(url);
  const info: RequestInfo = {
    isResourceRequest: false,
    verb: 'nonresource',
    path,
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    query,
  };
  const parts = segments(path);
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return info;
  info.apiPrefix = prefix;
  let at = 1;
  if (prefix === 'apis') {
    if (parts.length - at < 2) {
      info.verb = 'discovery';
      return info;
    }
    info.apiGroup = parts[at++]!;
  }
  if (parts.length - at < 2) {
    info.apiVersion = parts[at] ?? '';
    info.verb = 'discovery';
    return info;
  }
  info.apiVersion = parts[at++]!;
  info.isResourceRequest = true;

  let watchPrefix = false;
  if (parts[at] === 'watch') {
    watchPrefix = true;
    at++;
  }
  if (parts[at] === 'namespaces' && parts.length - at > 1) {
    info.namespace = parts[at + 1]!;
    if (parts.length - at > 2 && !NAMESPACE_SUBRESOURCES.has(parts[at + 2]!)) at += 2;
  }
  info.resource = parts[at] ?? '';
  info.name = parts[at + 1] ?? '';
  info.subresource = parts[at + 2] ?? '';
  if (info.resource === 'namespaces') info.namespace = '';

  info.verb = verbOf(method.toUpperCase(), info, watchPrefix || parseBool(query.get('watch')));
  return info;
}

/** A path WHATWG URL parsing leaves as it is: plain characters, no dot segments (`%2e` counts as a dot). */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@/%]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * The path and query of a request URL, as `new URL(url, base)` gives them: split by hand for the
 * common plain path (the URL parser is a measurable part of a proxied GET), parsed otherwise.
 * Never throws. A request-target is a path even when it begins with `//` (Go's
 * url.ParseRequestURI, which kube-apiserver's server uses, reads no authority without a scheme);
 * one the URL parser refuses is split as it is.
 */
function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && !url.includes('#')) {
    return { path, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
  }
  try {
    const parsed = url.startsWith('/') ? new URL(`${PARSE_ORIGIN}${url}`) : new URL(url, PARSE_ORIGIN);
    return { path: parsed.pathname, query: parsed.searchParams };
  } catch {
    return { path: path.startsWith('/') ? path : `/${path}`, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
  }
}

const PARSE_ORIGIN = 'http://kubetape.invalid';

/**
 * Why a Go server refuses the request-target's path before any handler sees it (its
 * url.ParseRequestURI fails: a `%` not followed by two hex digits, a control character), or
 * undefined. kube-apiserver answers such a request `400 Bad Request` in plain text.
 */
export function requestTargetError(url: string): string | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (/[\x00-\x1f\x7f]/.test(url)) return 'invalid control character in URL';
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(path);
  if (bad) return `invalid URL escape ${JSON.stringify(path.slice(bad.index, bad.index + 3))}`;
  return undefined;
}

function verbOf(method: string, info: RequestInfo, watch: boolean): RequestVerb {
  if (CONNECT_SUBRESOURCES.has(info.subresource)) return 'connect';
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (watch) return 'watch';
      return info.name ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return info.name ? 'delete' : 'deletecollection';
    default:
      return 'nonresource';
  }
}

/** `configmaps` for the core group, `deployments.apps` otherwise: how kubectl and the fault rules name a resource. */
export function qualifiedResource(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource;
}

/** The path's non-empty segments, percent-decoded (one that does not decode is kept as it is). */
function segments(path: string): string[] {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment !== '') out.push(segment.includes('%') ? safeDecode(segment) : segment);
  }
  return out;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
