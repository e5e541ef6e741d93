/** URL path → resource request, as the apiserver's RequestInfo resolver splits it (including `/watch/` paths). */
import type { ResourceRequest } from './context';
import { findResource } from './resources';
import { pathNotFound } from './status';

export interface Routed extends ResourceRequest {
  /** Came in on the deprecated `/watch/` prefix. */
  watchPath: boolean;
}

export function route(pathname: string): Routed | undefined {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3 && !(group === '' && rest.length === 3 && ['status', 'finalize'].includes(rest[2]))) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, subresource, ...extra] = rest;
  const def = findResource(group, version, resource);
  if (!def || extra.length) throw pathNotFound();
  if (def.scope === 'Cluster' && namespace) throw pathNotFound();
  return { def, namespace, name, subresource, watchPath };
}
