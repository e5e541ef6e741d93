import type { NormalisedRequest } from './request-key';
import { queryString } from './request-key';

/**
 * One thing two requests must agree on to match (talkback's named predicates). Matching itself
 * is a key lookup (ExchangeIndex); the predicates explain why a miss missed, each naming the
 * part that differs.
 */
export interface MatchPredicate {
  readonly name: string;
  /** undefined when the recorded request and this one agree; else a phrase saying how they differ. */
  differs(recorded: NormalisedRequest, request: NormalisedRequest): string | undefined;
}

export const isSameMethod: MatchPredicate = {
  name: 'isSameMethod',
  differs: (recorded, request) => (recorded.method === request.method ? undefined : `method ${recorded.method} recorded, ${request.method} requested`),
};

export const isSamePath: MatchPredicate = {
  name: 'isSamePath',
  differs: (recorded, request) => (recorded.path === request.path ? undefined : `path ${recorded.path} recorded`),
};

export const isSameQuery: MatchPredicate = {
  name: 'isSameQuery',
  differs(recorded, request) {
    if (queryString(recorded.query) === queryString(request.query)) return undefined;
    const was = grouped(recorded.query);
    const now = grouped(request.query);
    const parts: string[] = [];
    for (const name of new Set([...was.keys(), ...now.keys()])) {
      const a = was.get(name);
      const b = now.get(name);
      if (a === b) continue;
      if (a === undefined) parts.push(`${name}=${b} not recorded`);
      else if (b === undefined) parts.push(`${name}=${a} recorded, absent here`);
      else parts.push(`${name}=${a} recorded, ${b} requested`);
    }
    return `query: ${parts.join(', ')}`;
  },
};

export const isSameRepresentation: MatchPredicate = {
  name: 'isSameRepresentation',
  differs: (recorded, request) =>
    recorded.representation === request.representation
      ? undefined
      : `representation ${recorded.representation} recorded, ${request.representation} requested (Accept)`,
};

export const isSameBody: MatchPredicate = {
  name: 'isSameBody',
  differs(recorded, request) {
    if (recorded.body === request.body) return undefined;
    if (!recorded.body) return 'a body is sent here, none was recorded';
    if (!request.body) return 'a body was recorded, none is sent here';
    const typeOf = (body: string) => body.slice(0, body.lastIndexOf(' '));
    const [a, b] = [typeOf(recorded.body), typeOf(request.body)];
    return a === b ? `request body differs (${a})` : `request body ${a} recorded, ${b} sent`;
  },
};

export const isSameHeaders: MatchPredicate = {
  name: 'isSameHeaders',
  differs(recorded, request) {
    const diffs: string[] = [];
    request.headers.forEach((h, i) => {
      if (recorded.headers[i] !== h) diffs.push(`"${recorded.headers[i]}" recorded, "${h}" requested`);
    });
    return diffs.length === 0 ? undefined : `header ${diffs.join(', ')}`;
  },
};

/** In the order a reader wants the differences. */
export const PREDICATES: readonly MatchPredicate[] = [isSameMethod, isSamePath, isSameQuery, isSameRepresentation, isSameBody, isSameHeaders];

export interface Difference {
  predicate: string;
  message: string;
}

/** Every way the recorded request differs from this one (empty: they match). */
export function differences(recorded: NormalisedRequest, request: NormalisedRequest): Difference[] {
  const out: Difference[] = [];
  for (const p of PREDICATES) {
    const message = p.differs(recorded, request);
    if (message !== undefined) out.push({ predicate: p.name, message });
  }
  return out;
}

function grouped(query: ReadonlyArray<readonly [string, string]>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of query) map.set(name, map.has(name) ? `${map.get(name)},${value}` : value);
  return map;
}
