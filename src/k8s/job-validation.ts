/**
 * batch/validation's Job rules as a v1.26 apiserver runs them after defaulting: the generated
 * selector and labels (checked as if generated, since kubetape sets them after validation, in
 * completeCreate), ValidateJobSpec (counts, completionMode, podFailurePolicy, the pod template, restartPolicy
 * OnFailure or Never, selector and template labels) and, on update, ValidateJobSpecUpdate (the
 * spec rules again, then completions, selector, template, completionMode and podFailurePolicy
 * immutable). `validateJobSpecBody` is the part a CronJob's jobTemplate shares. Pure.
 */
import { forbiddenField, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { nonNegative } from './int-or-percent';
import { goLabelSelector, goStringMap, labelSelectorAsSelector, validateLabelSelector } from './label-selector-validation';
import { isDns1123Label } from './names';
import { validatePodFailurePolicy } from './pod-failure-policy-validation';
import { validatePodTemplateSpec } from './pod-validation';
import { MISMATCH, objOf, restartPolicyOf, semanticEqual, templateLabels } from './workload-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const MAX_PARALLELISM_INDEXED = 100000;
const TRACKING_ANNOTATION = 'batch.kubernetes.io/job-tracking';
const IMMUTABLE = 'field is immutable';

/** validateJobSpec: what a Job and a CronJob's jobTemplate share (`path`: `spec` or `spec.jobTemplate.spec`). */
export function validateJobSpecBody(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) errs.push(...nonNegative(spec[f], `${path}.${f}`));
  const mode = spec.completionMode;
  if (mode !== undefined && mode !== null) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupportedField(`${path}.completionMode`, String(mode), ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (typeof spec.completions !== 'number') errs.push(requiredField(`${path}.completions`, 'when completion mode is Indexed'));
      if (typeof spec.parallelism === 'number' && spec.parallelism > MAX_PARALLELISM_INDEXED) {
        errs.push(invalidField(`${path}.parallelism`, spec.parallelism, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
      }
    }
  }
  const template = objOf(spec.template);
  if (isPlainObject(spec.podFailurePolicy)) errs.push(...validatePodFailurePolicy(spec.podFailurePolicy, template, `${path}.podFailurePolicy`));
  errs.push(...validatePodTemplateSpec(template, `${path}.template`));
  const policy = restartPolicyOf(template);
  const policyPath = `${path}.template.spec.restartPolicy`;
  if (policy === 'Always' || policy === '') errs.push(requiredField(policyPath, 'valid values: "OnFailure", "Never"'));
  else if (policy !== 'OnFailure' && policy !== 'Never') errs.push(notSupportedField(policyPath, policy, ['OnFailure', 'Never']));
  else if (isPlainObject(spec.podFailurePolicy) && policy !== 'Never') errs.push(invalidField(policyPath, policy, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/** ValidateJobSpec: the shared rules, then the selector and the template's labels. */
function jobSpec(spec: Obj): FieldError[] {
  const errs = validateJobSpecBody(spec, 'spec');
  if (!isPlainObject(spec.selector)) errs.push(requiredField('spec.selector', ''));
  else errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const selector = labelSelectorAsSelector(spec.selector);
  const labels = templateLabels(objOf(spec.template));
  if (selector && !selector.matches(labels)) errs.push(invalidField('spec.template.metadata.labels', { goSyntax: goStringMap(labels) }, MISMATCH));
  return errs;
}

/** The spec as the strategy's generateSelector leaves it: the job-name and controller-uid labels and the controller-uid selector, where not given. */
function withGeneratedSelector(spec: Obj, name: string, uid: string): Obj {
  const template = objOf(spec.template);
  const meta = objOf(template.metadata);
  const labels: Obj = { ...objOf(meta.labels) };
  if (!('job-name' in labels)) labels['job-name'] = name;
  if (!('controller-uid' in labels)) labels['controller-uid'] = uid;
  const selector: Obj = { ...objOf(spec.selector) };
  selector.matchLabels = { ...objOf(selector.matchLabels) };
  if (!('controller-uid' in selector.matchLabels)) selector.matchLabels['controller-uid'] = uid;
  return { ...spec, selector, template: { ...template, metadata: { ...meta, labels } } };
}

/** ValidateGeneratedSelector: the template carries the generated labels and the selector selects exactly them. */
function generatedSelector(spec: Obj, name: string, uid: string): FieldError[] {
  if (spec.manualSelector === true || !isPlainObject(spec.selector)) return [];
  const errs: FieldError[] = [];
  const labels = objOf(templateLabels(objOf(spec.template)));
  for (const [key, expected] of [['controller-uid', uid], ['job-name', name]] as const) {
    const path = `spec.template.metadata.labels[${key}]`;
    if (!(key in labels)) errs.push(requiredField(path, `must be '${expected}'`));
    else if (labels[key] !== expected) errs.push(invalidField(path, { goSyntax: goStringMap(labels) }, `must be '${expected}'`));
  }
  // The batch.kubernetes.io/ labels are those of Jobs stored by newer apiservers (a recording's), whose selectors use them.
  const expected = { 'controller-uid': uid, 'job-name': name, 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name };
  const selector = labelSelectorAsSelector(spec.selector);
  if (selector && !selector.matches(expected)) {
    errs.push(invalidField('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  }
  return errs;
}

/** ValidateJob after the spec: an Indexed Job's last pod hostname must be a DNS label. */
function indexedHostname(spec: Obj, name: string): FieldError[] {
  if (spec.completionMode !== 'Indexed' || typeof spec.completions !== 'number' || spec.completions <= 0) return [];
  const hostname = `${name}-${spec.completions - 1}`;
  if (isDns1123Label(hostname).length === 0) return [];
  return [invalidField('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`)];
}

/** ValidateJob on create, on the spec as generated when manualSelector is not true. */
export function validateJob(obj: Obj): FieldError[] {
  const meta = objOf(obj.metadata);
  const name = String(meta.name ?? '');
  const uid = String(meta.uid ?? '');
  let spec = objOf(obj.spec);
  if (spec.manualSelector !== true) spec = withGeneratedSelector(spec, name, uid);
  return [...generatedSelector(spec, name, uid), ...jobSpec(spec), ...indexedHostname(spec, name)];
}

/** ValidateJob (no generation: the stored selector) and ValidateJobUpdate. */
export function validateJobUpdate(next: Obj, old: Obj): FieldError[] {
  const meta = objOf(next.metadata);
  const name = String(meta.name ?? '');
  const spec = objOf(next.spec);
  const oldSpec = objOf(old.spec);
  const errs = generatedSelector(spec, name, String(meta.uid ?? ''));
  const specErrs = jobSpec(spec);
  errs.push(...specErrs);
  const annotations = objOf(meta.annotations);
  if (TRACKING_ANNOTATION in annotations && !(TRACKING_ANNOTATION in objOf(objOf(old.metadata).annotations))) {
    errs.push(forbiddenField(`metadata.annotations[${TRACKING_ANNOTATION}]`, 'cannot add this annotation'));
  }
  errs.push(...indexedHostname(spec, name), ...specErrs);
  if (!semanticEqual(spec.completions, oldSpec.completions)) errs.push(invalidField('spec.completions', goNumber(spec.completions), IMMUTABLE));
  if (!semanticEqual(spec.selector, oldSpec.selector)) errs.push(invalidField('spec.selector', goLabelSelector(spec.selector), IMMUTABLE));
  if (!semanticEqual(...comparableTemplates(spec, oldSpec, old))) errs.push(invalidField('spec.template', { goSyntax: 'core.PodTemplateSpec{…}' }, IMMUTABLE));
  if (!semanticEqual(spec.completionMode, oldSpec.completionMode)) {
    errs.push(invalidField('spec.completionMode', spec.completionMode === undefined || spec.completionMode === null ? 'null' : String(spec.completionMode), IMMUTABLE));
  }
  if (!semanticEqual(spec.podFailurePolicy, oldSpec.podFailurePolicy)) {
    errs.push(invalidField('spec.podFailurePolicy', isPlainObject(spec.podFailurePolicy) ? { goSyntax: 'batch.PodFailurePolicy{…}' } : 'null', IMMUTABLE));
  }
  return errs;
}

/** A *int32 as field.Error prints it: the number, or a nil pointer as the string "null". */
const goNumber = (v: unknown) => (typeof v === 'number' ? v : 'null');

/**
 * The templates compared for immutability: a suspended Job that never started may change its
 * template's node affinity, node selector, tolerations, labels and annotations.
 */
function comparableTemplates(spec: Obj, oldSpec: Obj, old: Obj): [Obj, Obj] {
  const next = objOf(spec.template);
  const prev = objOf(oldSpec.template);
  if (!(oldSpec.suspend === true && !objOf(old.status).startTime)) return [next, prev];
  const strip = (t: Obj): Obj => {
    const meta = { ...objOf(t.metadata) };
    delete meta.labels;
    delete meta.annotations;
    const podSpec = { ...objOf(t.spec) };
    delete podSpec.nodeSelector;
    delete podSpec.tolerations;
    if (isPlainObject(podSpec.affinity)) {
      podSpec.affinity = { ...podSpec.affinity };
      delete podSpec.affinity.nodeAffinity;
    }
    return { ...t, metadata: meta, spec: podSpec };
  };
  return [strip(next), strip(prev)];
}
