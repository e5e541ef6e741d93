/**
 * A minimal OpenAPI v3: the index and one document per group-version listing each resource's operations with
 * their `x-kubernetes-group-version-kind` and the `fieldValidation` parameter. That is what kubectl's
 * field-validation check looks for before create/apply; no schemas (kubectl then leaves validation to the server).
 */
import { createHash } from 'node:crypto';
import type { Ctx } from './context';
import { RESOURCES, groups, type ResourceDef } from './resources';
import { sendJson } from './respond';
import { pathNotFound } from './status';

const gvPath = (g: { group: string; version: string }) => (g.group ? `apis/${g.group}/${g.version}` : `api/${g.version}`);

const param = (name: string, where = 'query') => ({ name, in: where, schema: { type: 'string', uniqueItems: true } });
const WRITE_PARAMS = [param('dryRun'), param('fieldManager'), param('fieldValidation')];

function operations(def: ResourceDef) {
  const gvk = { group: def.group, kind: def.kind, version: def.version };
  const op = (id: string, verb: string, params: object[] = []) => ({
    operationId: `${id}${def.kind}`, parameters: params, responses: { '200': { description: 'OK' } },
    'x-kubernetes-action': verb, 'x-kubernetes-group-version-kind': gvk,
  });
  const base = `/${gvPath(def)}${def.scope === 'Namespaced' ? '/namespaces/{namespace}' : ''}/${def.resource}`;
  return {
    [base]: { get: op('list', 'list'), post: op('create', 'post', WRITE_PARAMS), delete: op('deleteCollection', 'deletecollection') },
    [`${base}/{name}`]: {
      get: op('read', 'get'), put: op('replace', 'put', WRITE_PARAMS), patch: op('patch', 'patch', [...WRITE_PARAMS, param('force')]),
      delete: op('delete', 'delete'),
    },
  };
}

function document(gitVersion: string, g: { group: string; version: string }) {
  const paths = Object.assign({}, ...RESOURCES.filter((r) => r.group === g.group && r.version === g.version).map(operations));
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: gitVersion }, paths, components: { schemas: {} } };
}

const hash = (value: unknown) => createHash('sha512').update(JSON.stringify(value)).digest('hex').slice(0, 128).toUpperCase();

/** Answers /openapi/v3 and /openapi/v3/<gv>; false for other paths. */
export function serveOpenApi(ctx: Ctx): boolean {
  const path = ctx.url.pathname.replace(/\/+$/, '');
  if (path === '/openapi/v3') {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const g of groups()) paths[gvPath(g)] = { serverRelativeURL: `/openapi/v3/${gvPath(g)}?hash=${hash(document(ctx.settings.gitVersion, g))}` };
    sendJson(ctx.req, ctx.res, 200, { paths }, ctx.pretty);
    return true;
  }
  if (!path.startsWith('/openapi/v3/')) return false;
  const g = groups().find((x) => `/openapi/v3/${gvPath(x)}` === path);
  if (!g) throw pathNotFound();
  sendJson(ctx.req, ctx.res, 200, document(ctx.settings.gitVersion, g), ctx.pretty, { Etag: `"${hash(document(ctx.settings.gitVersion, g))}"` });
  return true;
}

