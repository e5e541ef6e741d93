/**
 * The Binding subresource's rules (kube-apiserver v1.26 BindingREST): ValidatePodBinding, and
 * the Pod a binding leaves (setPodHostAndAnnotations): spec.nodeName, the binding's annotations,
 * the PodScheduled condition as podutil.UpdatePodCondition sets it. Pure.
 */
import { notSupportedField, requiredField, type FieldError } from './field-errors';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** ValidatePodBinding: target.kind empty or Node, target.name required. */
export function validatePodBinding(binding: Obj): FieldError[] {
  const target = isPlainObject(binding.target) ? binding.target : {};
  const errs: FieldError[] = [];
  const kind = typeof target.kind === 'string' ? target.kind : '';
  if (kind.length > 0 && kind !== 'Node') errs.push(notSupportedField('target.kind', kind, ['Node', '<empty>']));
  if (typeof target.name !== 'string' || target.name.length === 0) errs.push(requiredField('target.name', ''));
  return errs;
}

/**
 * Why the pod cannot be bound (the text Go wraps in a Conflict on `pods/binding`), or undefined:
 * being deleted, or already on a node.
 */
export function bindingRefusal(pod: Obj): string | undefined {
  const name = pod.metadata?.name as string;
  if (pod.metadata?.deletionTimestamp) return `pod ${name} is being deleted, cannot be assigned to a host`;
  const node = typeof pod.spec?.nodeName === 'string' ? pod.spec.nodeName : '';
  if (node !== '') return `pod ${name} is already assigned to node ${JSON.stringify(node)}`;
  return undefined;
}

/** The pod bound to `node`: nodeName set, the binding's annotations merged, PodScheduled=True at `now`. */
export function boundPod(pod: Obj, node: string, annotations: Readonly<Record<string, string>> | undefined, now: string): Obj {
  const next = structuredClone(pod);
  next.spec = { ...(next.spec ?? {}), nodeName: node };
  if (annotations && Object.keys(annotations).length > 0) next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...annotations };
  next.status = setPodCondition(isPlainObject(next.status) ? next.status : {}, { type: 'PodScheduled', status: 'True' }, now);
  return next;
}

/**
 * podutil.UpdatePodCondition: the condition (type, status, reason, message) replaces the one of
 * its type, keeping that one's lastTransitionTime when the status is the same, else is appended;
 * lastProbeTime is always null (a zero metav1.Time).
 */
export function setPodCondition(status: Obj, condition: { type: string; status: string; reason?: string; message?: string }, now: string): Obj {
  const conditions = Array.isArray(status.conditions) ? [...status.conditions] : [];
  const index = conditions.findIndex((c) => isPlainObject(c) && c.type === condition.type);
  const old = index >= 0 ? conditions[index] : undefined;
  const next: Obj = { type: condition.type, status: condition.status, lastProbeTime: null };
  next.lastTransitionTime = old && old.status === condition.status ? (old.lastTransitionTime ?? null) : now;
  if (condition.reason) next.reason = condition.reason;
  if (condition.message) next.message = condition.message;
  if (index >= 0) conditions[index] = next;
  else conditions.push(next);
  return { ...status, conditions };
}
