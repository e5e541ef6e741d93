/** /version, legacy discovery (/api, /apis, /api/v1, /apis/G[/V]) and aggregated discovery (v2, v2beta1). */
import type { Ctx } from './context';
import { RESOURCES, groupVersion, groups, type ResourceDef } from './resources';
import { aggregatedDiscovery } from './negotiate';
import { sendBytes, sendJson } from './respond';
import { goJson } from './objects';
import { pathNotFound } from './status';

export function versionInfo(gitVersion: string) {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion);
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '32',
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-04-22T16:01:47Z',
    goVersion: 'go1.23.8',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

function apiResources(def: ResourceDef) {
  const main: Record<string, unknown> = {
    name: def.resource, singularName: def.singular, namespaced: def.scope === 'Namespaced', kind: def.kind, verbs: def.verbs,
  };
  if (def.shortNames.length) main.shortNames = def.shortNames;
  if (def.categories) main.categories = def.categories;
  main.storageVersionHash = def.storageVersionHash;
  const subs = def.subresources.map((s) => ({ name: `${def.resource}/${s.name}`, singularName: '', namespaced: def.scope === 'Namespaced', kind: s.kind, verbs: s.verbs }));
  return [main, ...subs];
}

function resourceDiscovery(def: ResourceDef) {
  const out: Record<string, unknown> = {
    resource: def.resource,
    responseKind: { group: def.group, version: def.version, kind: def.kind },
    scope: def.scope,
    singularResource: def.singular,
    verbs: def.verbs,
  };
  if (def.shortNames.length) out.shortNames = def.shortNames;
  if (def.categories) out.categories = def.categories;
  if (def.subresources.length) {
    out.subresources = def.subresources.map((s) => ({ subresource: s.name, responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind }, verbs: s.verbs }));
  }
  return out;
}

function aggregated(version: 'v2' | 'v2beta1', core: boolean) {
  const items = groups()
    .filter((g) => (g.group === '') === core)
    .map((g) => ({
      metadata: core ? { creationTimestamp: null } : { name: g.group, creationTimestamp: null },
      versions: [{ version: g.version, resources: RESOURCES.filter((r) => r.group === g.group && r.version === g.version).map(resourceDiscovery), freshness: 'Current' }],
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

function apiGroup(group: string) {
  const versions = groups().filter((g) => g.group === group).map((g) => ({ groupVersion: groupVersion(g), version: g.version }));
  return { name: group, versions, preferredVersion: versions[0] };
}

/** Answers a discovery path, or returns false when the path is not discovery. */
export function serveDiscovery(ctx: Ctx): boolean {
  const { req, res, pretty } = ctx;
  const path = ctx.url.pathname.replace(/\/+$/, '') || '/';
  if (path === '/version') {
    sendBytes(req, res, 200, Buffer.from(goJson(versionInfo(ctx.settings.gitVersion), true)), 'application/json');
    return true;
  }
  if (path === '/api' || path === '/apis') {
    const agg = aggregatedDiscovery(req.headers.accept);
    if (agg) {
      const contentType = `application/json;g=apidiscovery.k8s.io;v=${agg};as=APIGroupDiscoveryList`;
      sendJson(req, res, 200, aggregated(agg, path === '/api'), pretty, { Vary: 'Accept' }, contentType);
    } else if (path === '/api') {
      const host = req.socket.localAddress && `${req.socket.localAddress}:${req.socket.localPort}`;
      sendJson(req, res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }] }, pretty);
    } else {
      const named = [...new Set(groups().filter((g) => g.group).map((g) => g.group))];
      sendJson(req, res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: named.map(apiGroup) }, pretty);
    }
    return true;
  }
  if (path === '/api/v1') {
    const resources = RESOURCES.filter((r) => r.group === '').flatMap(apiResources);
    sendJson(req, res, 200, { kind: 'APIResourceList', groupVersion: 'v1', resources }, pretty);
    return true;
  }
  const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (m) {
    const [, group, version] = m;
    const defs = RESOURCES.filter((r) => r.group === group && (!version || r.version === version));
    if (!defs.length) throw pathNotFound();
    if (!version) sendJson(req, res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) }, pretty);
    else sendJson(req, res, 200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources: defs.flatMap(apiResources) }, pretty);
    return true;
  }
  return false;
}
