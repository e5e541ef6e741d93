/** URL paths of served objects, for the controllers' requests. */
import type { ServedResource } from '../served-resources';

/** `/api/v1/namespaces/NS/configmaps/NAME`, `/apis/apps/v1/...`, cluster-scoped without the namespace. */
export function objectPath(resource: ServedResource, namespace: string, name: string, query = ''): string {
  const { group, version } = resource.info;
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const ns = resource.namespaced ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${resource.info.resource}/${encodeURIComponent(name)}${query ? `?${query}` : ''}`;
}

export function isCore(resource: ServedResource, plural: string): boolean {
  return resource.info.group === '' && resource.info.resource === plural;
}
