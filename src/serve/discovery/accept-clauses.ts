/** What a discovery or OpenAPI request's Accept header asks for (clauses in goautoneg order). */
import { parseAccept } from '../negotiate';
import type { AggregatedVersion, RecordedAnswer } from './recorded-discovery';

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

export function jsonAccepted(accept: string | undefined): boolean {
  if (!accept) return true;
  return parseAccept(accept).some((c) => (c.type === '*' && c.subType === '*') || (c.type === 'application' && (c.subType === '*' || c.subType === 'json')));
}

export function pickByAccept(answers: RecordedAnswer[], accept: string | undefined): RecordedAnswer | undefined {
  if (!accept) return answers[0];
  for (const clause of parseAccept(accept)) {
    for (const answer of answers) {
      const [type = '', subType = ''] = answer.contentType.split(';')[0]!.trim().toLowerCase().split('/');
      if ((clause.type === '*' && clause.subType === '*') || (clause.type === type && (clause.subType === '*' || clause.subType === subType))) return answer;
    }
  }
  return undefined;
}
