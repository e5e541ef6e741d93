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
  let parts = path.split('/').filter((p) => p !== '').map(safeDecode);
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return info;
  info.apiPrefix = prefix;
  parts = parts.slice(1);
  if (prefix === 'apis') {
    if (parts.length < 2) return { ...info, verb: 'discovery' };
    info.apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  if (parts.length < 2) {
    info.apiVersion = parts[0] ?? '';
    return { ...info, verb: 'discovery' };
  }
  info.apiVersion = parts[0]!;
  parts = parts.slice(1);
  info.isResourceRequest = true;

  let watchPrefix = false;
  if (parts[0] === 'watch') {
    watchPrefix = true;
    parts = parts.slice(1);
  }
  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  info.resource = parts[0] ?? '';
  info.name = parts[1] ?? '';
  info.subresource = parts[2] ?? '';
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
 */
function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && !url.includes('#')) {
    return { path, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
  }
  const parsed = new URL(url, 'http://kubetape.invalid');
  return { path: parsed.pathname, query: parsed.searchParams };
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

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
