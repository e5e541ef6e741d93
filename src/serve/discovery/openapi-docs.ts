/**
 * A minimal OpenAPI v3 built from what serve knows, for recordings without one: the index
 * (`/openapi/v3` → `{"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=H"}, …}}`,
 * as kube-apiserver shapes it) and one document per group-version listing the paths of its
 * resources, each operation with its `x-kubernetes-action` and `x-kubernetes-group-version-kind`.
 * No schemas: clients then leave validation to the server.
 */
import { createHash } from 'node:crypto';
import type { GroupModel } from './discovery-docs';
import type { KnownResource } from './known-resources';

type Obj = Record<string, any>;

/** `api/v1` or `apis/G/V`: the index key and the document's path below /openapi/v3/. */
export function groupVersionPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/** The index: every group-version of the model, with the hash of its document. */
export function openApiV3Index(model: readonly GroupModel[], gitVersion: string): Obj {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const g of model) {
    for (const v of g.versions) {
      const path = groupVersionPath(g.name, v.version);
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${openApiHash(openApiV3Document(g.name, v.version, v.resources, gitVersion))}` };
    }
  }
  return { paths };
}

/** The document of one group-version: its resources' paths and operations. */
export function openApiV3Document(group: string, version: string, resources: readonly KnownResource[], gitVersion: string): Obj {
  const paths: Obj = {};
  for (const r of resources) Object.assign(paths, resourcePaths(r));
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: gitVersion }, paths, components: { schemas: {} } };
}

/** The apiserver's hash of a document: upper-case hex SHA-512 of its JSON. */
export function openApiHash(doc: Obj): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
}

const param = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });
const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation'].map(param);

function resourcePaths(r: KnownResource): Obj {
  const gvk = { group: r.group, kind: r.kind, version: r.version };
  const verbs = new Set(r.verbs ?? ['get', 'list', 'watch']);
  const op = (id: string, action: string, parameters: object[] = []) => ({
    operationId: `${id}${r.kind}`,
    parameters,
    responses: { '200': { description: 'OK' } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  });
  const collection: Obj = {};
  if (verbs.has('list')) collection.get = op('list', 'list', [param('watch')]);
  if (verbs.has('create')) collection.post = op('create', 'post', WRITE_PARAMS);
  if (verbs.has('deletecollection')) collection.delete = op('deleteCollection', 'deletecollection');
  const item: Obj = {};
  if (verbs.has('get')) item.get = op('read', 'get');
  if (verbs.has('update')) item.put = op('replace', 'put', WRITE_PARAMS);
  if (verbs.has('patch')) item.patch = op('patch', 'patch', [...WRITE_PARAMS, param('force')]);
  if (verbs.has('delete')) item.delete = op('delete', 'delete');
  const base = `/${groupVersionPath(r.group, r.version)}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}`;
  const out: Obj = {};
  if (Object.keys(collection).length) out[base] = collection;
  if (Object.keys(item).length) out[`${base}/{name}`] = item;
  return out;
}
