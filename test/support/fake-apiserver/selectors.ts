/** Label selectors (equality and set-based) and the field selectors every resource supports. */
import { badRequest } from './status';
import type { KObject } from './objects';

export type Predicate = (obj: KObject) => boolean;

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

function requirement(text: string): Predicate {
  const labels = (o: KObject): Record<string, string> => o.metadata?.labels ?? {};
  let m = /^!\s*([\w./-]+)$/.exec(text);
  if (m) {
    const key = m[1];
    return (o) => !(key in labels(o));
  }
  m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(text);
  if (m) {
    const [, key, op, list] = m;
    const values = new Set(list.split(',').map((v) => v.trim()));
    return op === 'in' ? (o) => values.has(labels(o)[key]) : (o) => !values.has(labels(o)[key]);
  }
  m = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(text);
  if (m) {
    const [, key, op, value] = m;
    return op === '!=' ? (o) => labels(o)[key] !== value : (o) => labels(o)[key] === value;
  }
  m = /^([\w./-]+)$/.exec(text);
  if (m) {
    const key = m[1];
    return (o) => key in labels(o);
  }
  throw badRequest(`unable to parse requirement: ${text}`);
}

export function labelSelector(text: string | null): Predicate | undefined {
  if (!text) return undefined;
  const reqs = splitTopLevel(text).map(requirement);
  return (o) => reqs.every((r) => r(o));
}

const FIELDS: Record<string, (o: KObject) => string> = {
  'metadata.name': (o) => o.metadata?.name ?? '',
  'metadata.namespace': (o) => o.metadata?.namespace ?? '',
};

export function fieldSelector(text: string | null, extra: Record<string, (o: KObject) => string> = {}): Predicate | undefined {
  if (!text) return undefined;
  const known = { ...FIELDS, ...extra };
  const reqs = splitTopLevel(text).map((part): Predicate => {
    const m = /^([\w.]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const [, field, op, value] = m;
    const get = known[field];
    if (!get) throw badRequest(`field label not supported: ${field}`);
    return op === '!=' ? (o) => get(o) !== value : (o) => get(o) === value;
  });
  return (o) => reqs.every((r) => r(o));
}
