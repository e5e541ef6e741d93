/**
 * Discovery answers found in a recording (`exchanges`: GET /version, /api, /apis, /api/v1,
 * /apis/G, /apis/G/V, /openapi/v2, /openapi/v3…, status 200, not streamed), decoded from gzip,
 * with what they say about resources (aggregated documents and APIResourceLists).
 */
import type { Db } from '../../recording/open';
import { discoveryResponses } from '../../recording/reader/discovery-responses';
import { gunzipSafe, isGzip } from '../../wire/gzip';
import { parseMediaType } from '../../wire/media-types';
import type { KnownResource, KnownSubresource } from './known-resources';

export type AggregatedVersion = 'v2' | 'v2beta1';

export interface RecordedAnswer {
  path: string;
  contentType: string;
  headers: [string, string][];
  /** Decoded (never gzip) body. */
  body: Buffer;
}

type Obj = Record<string, any>;

const DISCOVERY_PATH = /^\/(version|api|apis|api\/v1|apis\/[^/]+|apis\/[^/]+\/[^/]+|openapi\/v2|openapi\/v3(\/.*)?)$/;

export class RecordedDiscovery {
  version?: RecordedAnswer;
  /** JSON APIVersions / APIGroupList / APIGroup / APIResourceList by path. */
  readonly legacy = new Map<string, RecordedAnswer>();
  /** JSON APIGroupDiscoveryList by `${path} ${version}` (path /api or /apis). */
  readonly aggregated = new Map<string, RecordedAnswer>();
  /** OpenAPI documents by path, every recorded content type (latest first). */
  readonly openapi = new Map<string, RecordedAnswer[]>();

  /** Reads every recorded discovery answer; a later exchange for the same answer wins. */
  static read(db: Db): RecordedDiscovery {
    const recorded = new RecordedDiscovery();
    for (const row of discoveryResponses(db)) recorded.add(row.url, parseHeaders(row.headers), row.body);
    return recorded;
  }

  add(url: string, headers: [string, string][], wireBody: Buffer): void {
    const path = url.split('?')[0]!.replace(/\/+$/, '') || '/';
    if (!DISCOVERY_PATH.test(path)) return;
    const encoding = headerValue(headers, 'content-encoding');
    const body = isGzip(encoding) ? gunzipSafe(wireBody) : wireBody;
    if (body instanceof Error) return;
    const contentType = headerValue(headers, 'content-type') ?? '';
    const answer: RecordedAnswer = { path, contentType, headers: headers.filter(([n]) => !/^content-(encoding|length)$/i.test(n)), body };
    if (path === '/version') {
      this.version = answer;
    } else if (path.startsWith('/openapi/')) {
      this.openapi.set(path, [answer, ...(this.openapi.get(path) ?? []).filter((a) => a.contentType !== contentType)]);
    } else {
      const mt = parseMediaType(contentType);
      if (mt.type !== 'application' || mt.subtype !== 'json') return;
      if (mt.params.as === 'APIGroupDiscoveryList') {
        if (mt.params.v === 'v2' || mt.params.v === 'v2beta1') this.aggregated.set(`${path} ${mt.params.v}`, answer);
      } else if (!mt.params.as) {
        this.legacy.set(path, answer);
      }
    }
  }

  /** Resources the recorded documents describe: aggregated documents first, then APIResourceLists. */
  resources(): KnownResource[] {
    const out = new Map<string, KnownResource>();
    const put = (r: KnownResource) => {
      const key = `${r.group}/${r.version}/${r.resource}`;
      if (!out.has(key)) out.set(key, r);
    };
    for (const version of ['v2', 'v2beta1'] as const) {
      for (const path of ['/api', '/apis']) {
        const doc = this.json(this.aggregated.get(`${path} ${version}`));
        for (const r of doc ? resourcesOfAggregated(doc) : []) put(r);
      }
    }
    for (const [path, answer] of this.legacy) {
      if (path === '/api/v1' || /^\/apis\/[^/]+\/[^/]+$/.test(path)) {
        const doc = this.json(answer);
        for (const r of doc ? resourcesOfResourceList(doc) : []) put(r);
      }
    }
    return [...out.values()];
  }

  /** Groups in recorded order, each with its versions preferred first (from /apis, legacy or aggregated). */
  groupVersions(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const legacy = this.json(this.legacy.get('/apis'));
    if (legacy && Array.isArray(legacy.groups)) {
      for (const g of legacy.groups as Obj[]) {
        const versions: string[] = (g.versions ?? []).map((v: Obj) => v.version);
        const preferred = g.preferredVersion?.version;
        out.set(g.name, preferred ? [preferred, ...versions.filter((v) => v !== preferred)] : versions);
      }
      return out;
    }
    const aggregated = this.json(this.aggregated.get('/apis v2') ?? this.aggregated.get('/apis v2beta1'));
    for (const item of (aggregated?.items ?? []) as Obj[]) {
      out.set(item.metadata?.name ?? '', (item.versions ?? []).map((v: Obj) => v.version));
    }
    return out;
  }

  json(answer: RecordedAnswer | undefined): Obj | undefined {
    if (!answer) return undefined;
    try {
      return JSON.parse(answer.body.toString('utf8')) as Obj;
    } catch {
      return undefined;
    }
  }
}

function resourcesOfAggregated(doc: Obj): KnownResource[] {
  const out: KnownResource[] = [];
  for (const item of (doc.items ?? []) as Obj[]) {
    const group: string = item.metadata?.name ?? '';
    for (const v of (item.versions ?? []) as Obj[]) {
      for (const r of (v.resources ?? []) as Obj[]) {
        out.push({
          group,
          version: v.version,
          resource: r.resource,
          kind: r.responseKind?.kind ?? '',
          namespaced: r.scope === 'Namespaced',
          verbs: r.verbs ?? [],
          ...(r.shortNames ? { shortNames: r.shortNames } : {}),
          ...(r.singularResource ? { singularName: r.singularResource } : {}),
          ...(r.categories ? { categories: r.categories } : {}),
          subresources: ((r.subresources ?? []) as Obj[]).map((s) => subresource(s.subresource, s.responseKind ?? {}, s.verbs)),
        });
      }
    }
  }
  return out;
}

function resourcesOfResourceList(doc: Obj): KnownResource[] {
  const gv: string = doc.groupVersion ?? '';
  const slash = gv.indexOf('/');
  const group = slash < 0 ? '' : gv.slice(0, slash);
  const version = slash < 0 ? gv : gv.slice(slash + 1);
  const list = (doc.resources ?? []) as Obj[];
  const out = new Map<string, KnownResource>();
  for (const r of list.filter((x) => !String(x.name).includes('/'))) {
    out.set(r.name, {
      group,
      version,
      resource: r.name,
      kind: r.kind ?? '',
      namespaced: Boolean(r.namespaced),
      verbs: r.verbs ?? [],
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.singularName ? { singularName: r.singularName } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
      subresources: [],
    });
  }
  for (const r of list.filter((x) => String(x.name).includes('/'))) {
    const [parent = '', sub = ''] = String(r.name).split('/', 2);
    out.get(parent)?.subresources!.push(subresource(sub, { group: r.group, version: r.version, kind: r.kind }, r.verbs));
  }
  return [...out.values()];
}

function subresource(name: string, kind: Obj, verbs: unknown): KnownSubresource {
  return {
    subresource: name,
    kind: kind.kind ?? '',
    ...(kind.group ? { group: kind.group } : {}),
    ...(kind.version ? { version: kind.version } : {}),
    verbs: Array.isArray(verbs) ? (verbs as string[]) : [],
  };
}

function parseHeaders(json: string | null): [string, string][] {
  if (!json) return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? (parsed.filter((h) => Array.isArray(h) && h.length === 2).map(([n, v]) => [String(n), String(v)]) as [string, string][]) : [];
  } catch {
    return [];
  }
}

export function headerValue(headers: [string, string][], lowerName: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === lowerName)?.[1];
}
