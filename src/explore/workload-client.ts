/**
 * The workload's own client: REST calls to the serve under test with the User-Agent
 * `kubetape-explore/workload` (how explore tells its requests from the controller's), and the
 * resource paths from the server's discovery (`configmaps`, `deployments.apps`, a CRD's plural).
 */
import type { Obj } from './workload';

export const WORKLOAD_USER_AGENT = 'kubetape-explore/workload';

interface ApiResource {
  groupVersion: string;
  name: string;
  kind: string;
  namespaced: boolean;
}

export interface Answer {
  status: number;
  body: Obj | undefined;
}

export class WorkloadClient {
  private resources: ApiResource[] | undefined;

  constructor(private readonly url: string) {}

  async request(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
    const res = await fetch(this.url + path, {
      method,
      headers: { 'User-Agent': WORKLOAD_USER_AGENT, Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': contentType } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Obj | undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed };
  }

  /** The collection path of `resource` (plural or `plural.group`) in `namespace`. */
  async collectionPath(resource: string, namespace?: string): Promise<string> {
    const dot = resource.indexOf('.');
    const plural = dot < 0 ? resource : resource.slice(0, dot);
    const group = dot < 0 ? '' : resource.slice(dot + 1);
    const found = (await this.discover()).find((r) => r.name === plural && groupOf(r.groupVersion) === group);
    if (!found) throw new Error(`the server serves no resource "${resource}"`);
    return pathFor(found, namespace);
  }

  /** The collection path for an object's apiVersion and kind. */
  async pathForObject(obj: Obj): Promise<string> {
    let found = (await this.discover(false)).find((r) => r.groupVersion === obj.apiVersion && r.kind === obj.kind);
    // A CRD installed by an earlier step: discovery again.
    if (!found) found = (await this.discover(true)).find((r) => r.groupVersion === obj.apiVersion && r.kind === obj.kind);
    if (!found) throw new Error(`the server serves no kind ${obj.kind} in ${obj.apiVersion}`);
    return pathFor(found, obj.metadata?.namespace ?? (found.namespaced ? 'default' : undefined));
  }

  /** The server's resources (discovery, read once; again with `refresh`). */
  async discover(refresh = false): Promise<ApiResource[]> {
    if (this.resources && !refresh) return this.resources;
    const groups: Obj[] = (await this.request('GET', '/apis')).body?.groups ?? [];
    const paths = ['/api/v1', ...groups.flatMap((g) => (g.versions ?? []).map((v: Obj) => `/apis/${v.groupVersion}`))];
    const docs = await Promise.all(paths.map(async (path) => (await this.request('GET', path)).body));
    const out: ApiResource[] = [];
    for (const doc of docs) {
      for (const r of doc?.resources ?? []) if (!String(r.name).includes('/')) out.push({ groupVersion: doc!.groupVersion, name: r.name, kind: r.kind, namespaced: r.namespaced });
    }
    this.resources = out;
    return out;
  }
}

function groupOf(groupVersion: string): string {
  return groupVersion.includes('/') ? groupVersion.split('/')[0]! : '';
}

function pathFor(r: ApiResource, namespace?: string): string {
  const root = r.groupVersion.includes('/') ? `/apis/${r.groupVersion}` : `/api/${r.groupVersion}`;
  return r.namespaced ? `${root}/namespaces/${namespace ?? 'default'}/${r.name}` : `${root}/${r.name}`;
}
