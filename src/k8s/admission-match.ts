/**
 * Whether an admission webhook is called for a request, as the apiserver's webhook predicates
 * decide (admission/plugin/webhook/predicates: namespace, object, rules): the namespace selector
 * first, then the object selector, then the rules. Pure: the namespace's labels come from the caller.
 */
import { labelSelectorAsSelector } from './label-selector-validation';

type Obj = Record<string, any>;

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What the predicates read of a request (admission.Attributes). */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  group: string;
  version: string;
  /** The plural resource name. */
  resource: string;
  subresource: string;
  /** The request's namespace ('' for a cluster-scoped resource; a Namespace's own name for its requests). */
  namespace: string;
  object?: Obj;
  oldObject?: Obj;
}

/** The outcome of the namespace selector: a NotFound namespace is the request's 404. */
export type NamespaceLabels = (namespace: string) => Record<string, string> | undefined;

/**
 * undefined when the webhook is not called; 'call' when it is; 'namespace-missing' when its
 * namespace selector would need the labels of a namespace that does not exist (the apiserver's 404).
 */
export function webhookMatches(webhook: Obj, attr: AdmissionAttributes, namespaceLabels: NamespaceLabels): 'call' | 'namespace-missing' | undefined {
  const ns = namespaceSelectorMatches(webhook.namespaceSelector, attr, namespaceLabels);
  if (ns === false) return undefined;
  if (!objectSelectorMatches(webhook.objectSelector, attr)) return undefined;
  const rules = Array.isArray(webhook.rules) ? (webhook.rules as Obj[]) : [];
  if (!rules.some((r) => ruleMatches(r, attr))) return undefined;
  return ns === 'missing' ? 'namespace-missing' : 'call';
}

/** A RuleWithOperations: scope, operation, group, version, resource (with its subresource). */
export function ruleMatches(rule: Obj, attr: AdmissionAttributes): boolean {
  return scopeMatches(rule.scope, attr) &&
    anyOf(rule.operations, attr.operation) &&
    anyOf(rule.apiGroups, attr.group) &&
    anyOf(rule.apiVersions, attr.version) &&
    resourceMatches(rule.resources, attr);
}

function scopeMatches(scope: unknown, attr: AdmissionAttributes): boolean {
  const isNamespace = attr.group === '' && attr.resource === 'namespaces';
  if (scope === 'Namespaced') return !isNamespace && attr.namespace !== '';
  if (scope === 'Cluster') return isNamespace || attr.namespace === '';
  return true;
}

function anyOf(items: unknown, requested: string): boolean {
  return Array.isArray(items) && items.some((item) => item === '*' || item === requested);
}

function resourceMatches(resources: unknown, attr: AdmissionAttributes): boolean {
  if (!Array.isArray(resources)) return false;
  return resources.some((entry) => {
    if (typeof entry !== 'string') return false;
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === attr.resource) && (sub === '*' || sub === attr.subresource);
  });
}

/**
 * true/false, or 'missing' when the selector needs a namespace that does not exist. A
 * cluster-scoped resource other than a Namespace always matches; a Namespace's create or update
 * is matched by its own labels.
 */
function namespaceSelectorMatches(selector: unknown, attr: AdmissionAttributes, namespaceLabels: NamespaceLabels): boolean | 'missing' {
  const isNamespaces = attr.group === '' && attr.resource === 'namespaces';
  if (attr.namespace === '' && !isNamespaces) return true;
  const parsed = parsedSelector(selector);
  if (parsed.empty) return true;
  if (isNamespaces && attr.subresource === '' && (attr.operation === 'CREATE' || attr.operation === 'UPDATE')) {
    return parsed.matches(labelsOf(attr.object));
  }
  const labels = namespaceLabels(attr.namespace);
  if (labels === undefined) return 'missing';
  return parsed.matches(labels);
}

/** The object selector matches the new object's labels or the old one's. */
function objectSelectorMatches(selector: unknown, attr: AdmissionAttributes): boolean {
  const parsed = parsedSelector(selector);
  if (parsed.empty) return true;
  return (attr.object !== undefined && parsed.matches(labelsOf(attr.object))) || (attr.oldObject !== undefined && parsed.matches(labelsOf(attr.oldObject)));
}

/** metav1.LabelSelectorAsSelector of a webhook's selector (absent: everything); one Go cannot parse matches nothing. */
function parsedSelector(selector: unknown) {
  return labelSelectorAsSelector(selector ?? {}) ?? { empty: false, matches: () => false };
}

function labelsOf(obj: Obj | undefined): Record<string, string> {
  const labels = obj?.metadata?.labels;
  return labels && typeof labels === 'object' ? labels : {};
}

/** Configuration objects no webhook is called for (rules.IsExemptAdmissionConfigurationResource). */
export function isExemptFromWebhooks(group: string, resource: string): boolean {
  return group === 'admissionregistration.k8s.io' && EXEMPT.has(resource);
}

const EXEMPT = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings']);
