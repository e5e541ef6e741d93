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
const INVOLVED_OBJECT = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];

/**
 * The field labels of the kinds that register their own field label conversion (a v1.26
 * apiserver; w10-field-selector-support-matrix): anything else on them is `field label not
 * supported: X`. Every other resource takes only metadata.name and metadata.namespace
 * (DefaultMetaV1FieldSelectorConversion), with the other message.
 */
const FIELD_LABELS: Record<string, readonly string[]> = {
  pods: [...METADATA_FIELDS, 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  events: [...METADATA_FIELDS, ...INVOLVED_OBJECT.map((f) => `involvedObject.${f}`), 'reason', 'reportingComponent', 'source', 'type'],
  'events.events.k8s.io': [...METADATA_FIELDS, ...INVOLVED_OBJECT.map((f) => `regarding.${f}`), 'reason', 'reportingController', 'type'],
  secrets: [...METADATA_FIELDS, 'type'],
  namespaces: ['metadata.name', 'status.phase'],
  nodes: ['metadata.name', 'spec.unschedulable'],
  replicationcontrollers: [...METADATA_FIELDS, 'status.replicas'],
  'jobs.batch': [...METADATA_FIELDS, 'status.successful'],
  'certificatesigningrequests.certificates.k8s.io': ['metadata.name', 'spec.signerName'],
};

const qualifiedName = (group: string, resource: string) => (group ? `${resource}.${group}` : resource);

/** Throws the apiserver's 400 when the selector names a field the resource cannot be filtered on. */
export function checkSupportedFields(selector: FieldSelector, group: string, resource: string): void {
  const labels = FIELD_LABELS[qualifiedName(group, resource)];
  for (const r of selector.requirements) {
    if (labels && !labels.includes(r.field)) throw badRequest(`field label not supported: ${r.field}`);
    if (!labels && !METADATA_FIELDS.includes(r.field)) throw badRequest(`"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
  }
}

/**
 * A supported field's value as the registry's selectable field set has it, from `get` (the
 * object's value at a JSON path, '' when absent): most are the field itself; some are computed
 * (a Node's spec.unschedulable is "false" when unset, a Job's status.successful is
 * status.succeeded, a Pod's status.podIP is its first podIPs entry and status.podIPs is not in
 * the set at all).
 */
export function selectableValue(group: string, resource: string, field: string, get: (path: string) => string): string {
  switch (`${qualifiedName(group, resource)} ${field}`) {
    case 'pods status.podIP':
      return get('status.podIPs.0.ip');
    case 'pods status.podIPs':
      return '';
    case 'events source':
      return get('source.component');
    case 'nodes spec.unschedulable':
      return get('spec.unschedulable') || 'false';
    case 'jobs.batch status.successful':
      return get('status.succeeded') || '0';
    case 'replicationcontrollers status.replicas':
      return get('status.replicas') || '0';
    default:
      return get(field);
  }
}
