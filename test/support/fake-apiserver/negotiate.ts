/** Accept-header negotiation as the apiserver does it: first clause it can serve wins, else 406. */
import { notAcceptable } from './status';

export type Target =
  | { kind: 'json' }
  | { kind: 'yaml' }
  | { kind: 'protobuf' }
  | { kind: 'table'; version: 'v1' | 'v1beta1' }
  | { kind: 'partial'; version: 'v1' | 'v1beta1' };

export interface MediaRange {
  type: string;
  params: Record<string, string>;
}

export function parseAccept(accept: string | undefined): MediaRange[] {
  if (!accept) return [{ type: '*/*', params: {} }];
  return accept.split(',').map((clause) => {
    const [type, ...rest] = clause.split(';').map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
    }
    return { type: type.toLowerCase(), params };
  });
}

const META_VERSIONS = new Set(['v1', 'v1beta1']);

function clauseTarget(range: MediaRange, protobuf: boolean, watch: boolean): Target | undefined {
  const { type, params } = range;
  const as = params.as;
  const isJson = type === 'application/json' || type === 'application/*' || type === '*/*';
  if (as) {
    if (type !== 'application/json' || params.g !== 'meta.k8s.io' || !META_VERSIONS.has(params.v)) return undefined;
    const version = params.v as 'v1' | 'v1beta1';
    if (as === 'Table') return { kind: 'table', version };
    if (as === 'PartialObjectMetadata' || (!watch && as === 'PartialObjectMetadataList')) return { kind: 'partial', version };
    return undefined;
  }
  if (isJson) return { kind: 'json' };
  if (type === 'application/vnd.kubernetes.protobuf') return protobuf ? { kind: 'protobuf' } : undefined;
  if (type === 'application/yaml' && !watch) return { kind: 'yaml' };
  return undefined;
}

/** The representation to answer with; throws the apiserver's 406 when no clause is servable. */
export function negotiate(accept: string | undefined, opts: { protobuf: boolean; watch: boolean }): Target {
  for (const range of parseAccept(accept)) {
    const t = clauseTarget(range, opts.protobuf, opts.watch);
    if (t) return t;
  }
  throw notAcceptable();
}

/** Whether a discovery request accepts the aggregated form, and which version (v2 preferred in clause order). */
export function aggregatedDiscovery(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  for (const { type, params } of parseAccept(accept)) {
    if (type === 'application/json' && params.g === 'apidiscovery.k8s.io' && params.as === 'APIGroupDiscoveryList') {
      if (params.v === 'v2' || params.v === 'v2beta1') return params.v;
    }
  }
  return undefined;
}
