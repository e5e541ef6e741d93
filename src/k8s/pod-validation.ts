/**
 * core/validation's ValidatePodSpec, ValidatePodTemplateSpec and ValidatePodCreate (v1.26),
 * schema-less: the rules a Pod or a controller's pod template meets on a real apiserver, their
 * errors in the order the Go code appends them, field paths as it builds them. Field errors
 * only; the caller turns them into the 422. Runs after defaulting. Pure.
 *
 * Not ported (a real apiserver checks them too): image pull secrets, affinity, topology spread
 * constraints, host aliases, overhead, OS-specific fields, seccomp/AppArmor annotations,
 * ephemeral container details, volume devices, the serviceAccountToken-without-serviceAccountName
 * rule (ServiceAccount admission always sets the name first), and the deeper rules of the rarer
 * volume sources.
 */
import { forbiddenField, goStringSlice, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { parseIp } from './ip-address';
import { isDns1123Label, isDns1123Subdomain } from './names';
import { isLabelValue, isQualifiedName, validateAnnotations, validateLabels } from './object-meta-validation';
import { validateContainers, validateContainersOnlyForPod, validateHostNetwork, validateInitContainers } from './pod-container-validation';
import { MAX_INT32, validatePodSecurityContext } from './pod-security-validation';
import { validateVolumes } from './pod-volume-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

/** A required enum: Required when empty, NotSupported (the values in Go's order) when unknown. */
function validateEnum(value: string, supported: readonly string[], path: string): FieldError[] {
  if (supported.includes(value)) return [];
  if (value === '') return [requiredField(path, '')];
  return [notSupportedField(path, value, supported)];
}

/** validatePodDNSConfig's rules for dnsPolicy None and its counts. */
function validateDnsConfig(dnsConfig: unknown, dnsPolicy: string, path: string): FieldError[] {
  if (dnsPolicy === 'None') {
    if (!isPlainObject(dnsConfig)) return [requiredField(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (list(dnsConfig.nameservers).length === 0) return [requiredField(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!isPlainObject(dnsConfig)) return [];
  const errs: FieldError[] = [];
  const nameservers: unknown[] = Array.isArray(dnsConfig.nameservers) ? dnsConfig.nameservers : [];
  if (nameservers.length > 3) {
    errs.push(invalidField(`${path}.nameservers`, goStringSlice(nameservers.map(str)), 'must not have more than 3 nameservers'));
  }
  nameservers.forEach((ns, i) => {
    if (!parseIp(str(ns))) errs.push(invalidField(`${path}.nameservers[${i}]`, str(ns), 'must be valid IP address'));
  });
  const searches: unknown[] = Array.isArray(dnsConfig.searches) ? dnsConfig.searches : [];
  if (searches.length > 32) errs.push(invalidField(`${path}.searches`, goStringSlice(searches.map(str)), 'must not have more than 32 search paths'));
  if (searches.map(str).join(' ').length > 2048) {
    errs.push(invalidField(`${path}.searches`, goStringSlice(searches.map(str)), 'must not have more than 2048 characters (including spaces) in the search list'));
  }
  searches.forEach((s, i) => {
    const search = str(s).replace(/\.$/, '');
    for (const msg of isDns1123Subdomain(search)) errs.push(invalidField(`${path}.searches[${i}]`, search, msg));
  });
  list(dnsConfig.options).forEach((o, i) => {
    if (str(o.name).length === 0) errs.push(requiredField(`${path}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
/** `%#v` of a core.Toleration (a set tolerationSeconds is a pointer: Go prints its heap address, shown here as a fixed one). */
function goToleration(t: Obj): { goSyntax: string } {
  const seconds = t.tolerationSeconds === undefined || t.tolerationSeconds === null ? 'nil' : '0xc000010000';
  const q = (v: unknown) => JSON.stringify(str(v));
  return { goSyntax: `core.Toleration{Key:${q(t.key)}, Operator:${q(t.operator)}, Value:${q(t.value)}, Effect:${q(t.effect)}, TolerationSeconds:(*int64)(${seconds})}` };
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const idx = `${path}[${i}]`;
    const key = str(t.key);
    const operator = str(t.operator);
    const effect = str(t.effect);
    const value = str(t.value);
    if (key.length > 0) for (const msg of isQualifiedName(key)) errs.push(invalidField(`${idx}.key`, key, msg));
    if (key.length === 0 && operator !== 'Exists') {
      errs.push(invalidField(`${idx}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(invalidField(`${idx}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isLabelValue(value);
      if (msgs.length > 0) errs.push(invalidField(`${idx}.operator`, value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value.length > 0) errs.push(invalidField(`${idx}.operator`, goToleration(t), "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupportedField(`${idx}.operator`, operator, ['Equal', 'Exists']));
    }
    if (effect.length > 0 && !TAINT_EFFECTS.includes(effect)) errs.push(notSupportedField(`${idx}.effect`, effect, TAINT_EFFECTS));
  });
  return errs;
}

/** A name checked as a DNS subdomain (serviceAccountName, nodeName, priorityClassName, runtimeClassName). */
function validateSubdomainField(value: string, path: string): FieldError[] {
  return isDns1123Subdomain(value).map((msg) => invalidField(path, value, msg));
}

/** ValidatePodSpec: `spec` at `path` (`spec`, or `spec.template.spec`). */
export function validatePodSpec(spec: Obj, path: string): FieldError[] {
  const containers = list(spec.containers);
  const initContainers = list(spec.initContainers);
  const { volumes, errors } = validateVolumes(list(spec.volumes), `${path}.volumes`);
  const errs: FieldError[] = [...errors];
  errs.push(...validateContainers(containers, volumes, `${path}.containers`));
  errs.push(...validateInitContainers(initContainers, containers, volumes, `${path}.initContainers`));
  errs.push(...validateEnum(str(spec.restartPolicy), RESTART_POLICIES, `${path}.restartPolicy`));
  errs.push(...validateEnum(str(spec.dnsPolicy), DNS_POLICIES, `${path}.dnsPolicy`));
  errs.push(...validateLabels(isPlainObject(spec.nodeSelector) ? spec.nodeSelector : undefined, `${path}.nodeSelector`));
  // ValidatePodSecurityContext (always called: the internal PodSecurityContext holds hostNetwork).
  errs.push(...validateHostNetwork(spec.hostNetwork === true, containers, `${path}.containers`));
  errs.push(...validatePodSecurityContext(spec, `${path}.securityContext`));
  errs.push(...validateDnsConfig(spec.dnsConfig, str(spec.dnsPolicy), `${path}.dnsConfig`));
  list(spec.readinessGates).forEach((g, i) => {
    const conditionType = str(g.conditionType);
    for (const msg of isQualifiedName(conditionType)) errs.push(invalidField(`${path}.readinessGates[${i}].conditionType`, conditionType, msg));
  });
  const serviceAccountName = str(spec.serviceAccountName);
  if (serviceAccountName.length > 0) errs.push(...validateSubdomainField(serviceAccountName, `${path}.serviceAccountName`));
  const nodeName = str(spec.nodeName);
  if (nodeName.length > 0) errs.push(...validateSubdomainField(nodeName, `${path}.nodeName`));
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === 'number' && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(invalidField(`${path}.activeDeadlineSeconds`, deadline, `must be between 1 and ${MAX_INT32}, inclusive`));
  }
  for (const field of ['hostname', 'subdomain']) {
    const value = str(spec[field]);
    if (value.length > 0) for (const msg of isDns1123Label(value)) errs.push(invalidField(`${path}.${field}`, value, msg));
  }
  const tolerations = list(spec.tolerations);
  if (tolerations.length > 0) errs.push(...validateTolerations(tolerations, `${path}.tolerations`));
  const priorityClassName = str(spec.priorityClassName);
  if (priorityClassName.length > 0) errs.push(...validateSubdomainField(priorityClassName, `${path}.priorityClassName`));
  if (typeof spec.runtimeClassName === 'string') errs.push(...validateSubdomainField(spec.runtimeClassName, `${path}.runtimeClassName`));
  if (typeof spec.preemptionPolicy === 'string') errs.push(...validateEnum(spec.preemptionPolicy, ['PreemptLowerPriority', 'Never'], `${path}.preemptionPolicy`));
  return errs;
}

/**
 * ValidatePodTemplateSpec: the template's labels and annotations (Go names them `<path>.labels`,
 * without `metadata`), its spec, and no ephemeral containers; `path` names the template
 * (`spec.template`).
 */
export function validatePodTemplateSpec(template: Obj, path: string): FieldError[] {
  const meta = isPlainObject(template.metadata) ? template.metadata : {};
  const spec = isPlainObject(template.spec) ? template.spec : {};
  const errs = [
    ...validateLabels(meta.labels, `${path}.labels`),
    ...validateAnnotations(meta.annotations, `${path}.annotations`),
    ...validatePodSpecificAnnotations(meta.annotations, spec, `${path}.annotations`),
    ...validatePodSpec(spec, `${path}.spec`),
  ];
  if (list(spec.ephemeralContainers).length > 0) errs.push(forbiddenField(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  return errs;
}

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** helper.GetDeletionCostFromPodAnnotations: a base-10 int32; no plus sign, no leading zero unless negative. */
function isDeletionCost(value: string): boolean {
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;
}

/** ValidatePodSpecificAnnotations: a mirror Pod names its node; a deletion cost is an int32. */
export function validatePodSpecificAnnotations(annotations: unknown, spec: Obj, path: string): FieldError[] {
  if (!isPlainObject(annotations)) return [];
  const errs: FieldError[] = [];
  const mirror = annotations[MIRROR_POD_ANNOTATION];
  if (typeof mirror === 'string' && str(spec.nodeName).length === 0) {
    errs.push(invalidField(`${path}[${MIRROR_POD_ANNOTATION}]`, mirror, 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const cost = annotations[POD_DELETION_COST];
  if (typeof cost === 'string' && !isDeletionCost(cost)) errs.push(invalidField(`${path}[${POD_DELETION_COST}]`, cost, 'must be a 32bit integer'));
  return errs;
}

/**
 * validatePodMetadataAndSpec without ValidateObjectMeta (the caller's): the Pod's annotations,
 * the spec, then the Pod-only image rule.
 */
export function validatePodMetadataAndSpec(pod: Obj): FieldError[] {
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  return [
    ...validatePodSpecificAnnotations(pod.metadata?.annotations, spec, 'metadata.annotations'),
    ...validatePodSpec(spec, 'spec'),
    ...validateContainersOnlyForPod(list(spec.containers), 'spec.containers'),
    ...validateContainersOnlyForPod(list(spec.initContainers), 'spec.initContainers'),
  ];
}

/** ValidatePodCreate: the spec rules, and no ephemeral containers (they are added through their subresource). */
export function validatePod(pod: Obj): FieldError[] {
  const errs = validatePodMetadataAndSpec(pod);
  if (list(pod.spec?.ephemeralContainers).length > 0) errs.push(forbiddenField('spec.ephemeralContainers', 'cannot be set on create'));
  return errs;
}
