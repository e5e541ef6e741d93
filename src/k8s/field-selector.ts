/**
 * Field selectors as apimachinery's fields.ParseSelector reads them (`a=b,c!=d`, `==` too,
 * backslash escapes), and which fields each resource supports (`metadata.name` and
 * `metadata.namespace` everywhere, a few more for the built-ins that have them), so that an
 * unsupported field gets the apiserver's 400 `field label not supported: X`. Pure.
 */
import { badRequest } from './status';

export type FieldOperator = '=' | '==' | '!=';

export interface FieldRequirement {
  field: string;
  operator: FieldOperator;
  value: string;
}

export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  /** `get(field)` returns the object's value for a field ('' when absent). */
  matches(get: (field: string) => string): boolean;
}

const EVERYTHING: FieldSelector = { requirements: [], empty: true, matches: () => true };

export function parseFieldSelector(text: string): FieldSelector {
  if (text.trim() === '') return EVERYTHING;
  const requirements = splitTerms(text).map((term) => parseTerm(term, text));
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (get) =>
      requirements.every((r) => {
        const actual = get(r.field);
        return r.operator === '!=' ? actual !== r.value : actual === r.value;
      }),
  };
}

/** Splits on unescaped commas (fields.splitTerms). */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      current += c + text[i + 1];
      i++;
    } else if (c === ',') {
      terms.push(current);
      current = '';
    } else current += c;
  }
  terms.push(current);
  return terms.filter((t) => t.length > 0);
}

function parseTerm(term: string, whole: string): FieldRequirement {
  for (let i = 0; i < term.length; i++) {
    if (term[i] === '\\') {
      i++;
      continue;
    }
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) {
        return { field: unescape(term.slice(0, i)), operator: op, value: unescape(term.slice(i + op.length)) };
      }
    }
  }
  throw badRequest(`invalid selector: '${whole}'; can't understand '${term}'`);
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

const METADATA_FIELDS = ['metadata.name', 'metadata.namespace'];

/** Extra field labels the apiserver supports per resource (registry GetAttrs / field label conversion funcs). */
const EXTRA_FIELDS: Record<string, string[]> = {
  pods: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  events: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  'events.events.k8s.io': ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'regarding.apiVersion', 'regarding.resourceVersion', 'regarding.fieldPath', 'reason', 'reportingController', 'type'],
  secrets: ['type'],
  namespaces: ['status.phase'],
  nodes: ['spec.unschedulable'],
  replicationcontrollers: ['status.replicas'],
  'replicasets.apps': ['status.replicas'],
  'jobs.batch': ['status.successful'],
  'certificatesigningrequests.certificates.k8s.io': ['spec.signerName'],
};

/** Throws the apiserver's 400 when the selector names a field the resource cannot be filtered on. */
export function checkSupportedFields(selector: FieldSelector, group: string, resource: string): void {
  const qualified = group ? `${resource}.${group}` : resource;
  const extra = EXTRA_FIELDS[qualified] ?? [];
  for (const r of selector.requirements) {
    if (!METADATA_FIELDS.includes(r.field) && !extra.includes(r.field)) {
      throw badRequest(`field label not supported: ${r.field}`);
    }
  }
}
