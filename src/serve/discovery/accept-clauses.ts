/** What a discovery or OpenAPI request's Accept header asks for (clauses in goautoneg order). */
import { parseAccept, type AcceptClause } from '../negotiate';
import type { AggregatedVersion } from './recorded-discovery';

export const AGGREGATED_KIND = 'APIGroupDiscoveryList';

/**
 * The aggregated discovery version the Accept header asks for, if any: the first clause (in
 * goautoneg order) that is JSON with `as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2|v2beta1`
 * (DiscoveryEndpointRestrictions accept nothing else).
 */
export function aggregatedVersionAccepted(accept: string | undefined): AggregatedVersion | undefined {
  if (!accept) return undefined;
  for (const clause of parseAccept(accept)) {
    const json = (clause.type === 'application' && (clause.subType === 'json' || clause.subType === '*')) || (clause.type === '*' && clause.subType === '*');
    const p = clause.params;
    if (json && p.as === AGGREGATED_KIND && p.g === 'apidiscovery.k8s.io' && (p.v === 'v2' || p.v === 'v2beta1')) return p.v;
  }
  return undefined;
}

/** Whether an OpenAPI document may be answered as JSON for `accept` (no Accept, or a clause isOpenApiJsonClause takes). */
export function openApiJsonAccepted(accept: string | undefined): boolean {
  return !accept || parseAccept(accept).some(isOpenApiJsonClause);
}

/** A clause kube-openapi's handler serves an OpenAPI document as JSON for (`*` and `text/plain` kept for curl and browsers). */
export function isOpenApiJsonClause(c: AcceptClause): boolean {
  return (c.type === '*' && c.subType === '*') || (c.type === 'application' && (c.subType === '*' || c.subType === 'json')) || (c.type === 'text' && c.subType === 'plain');
}

/**
 * A clause asking for an OpenAPI document as gnostic protobuf: `com.github.proto-openapi.spec.v2@v1.0+protobuf`
 * (v1.26's only spelling; `later` also accepts the `.v1.0+protobuf` one newer apiservers added).
 */
export function isOpenApiProtobufClause(c: AcceptClause, version: 'v2' | 'v3', later = false): boolean {
  if (c.type !== 'application' && c.type !== '*') return false;
  return c.subType === `com.github.proto-openapi.spec.${version}@v1.0+protobuf` || (later && c.subType === `com.github.proto-openapi.spec.${version}.v1.0+protobuf`);
}
