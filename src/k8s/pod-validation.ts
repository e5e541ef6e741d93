/**
 * core/validation's ValidatePodSpec and ValidatePodTemplateSpec, schema-less: the rules a
 * controller's Pods and pod templates meet on a real v1.26 apiserver. Field errors only; the
 * caller turns them into the 422. Pure.
 */
import { requiredField, type FieldError } from './field-errors';
import { validateAnnotations, validateLabels } from './object-meta-validation';

type Obj = Record<string, any>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** ValidatePodSpec: `spec` at `path` (`spec`, or `spec.template.spec`). */
export function validatePodSpec(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(spec.containers) || spec.containers.length === 0) errs.push(requiredField(`${path}.containers`, ''));
  return errs;
}

/** ValidatePodTemplateSpec: the template's labels and annotations, then its spec; `path` names the template (`spec.template`). */
export function validatePodTemplateSpec(template: Obj, path: string): FieldError[] {
  const meta = isObj(template.metadata) ? template.metadata : {};
  return [
    ...validateLabels(meta.labels, `${path}.metadata.labels`),
    ...validateAnnotations(meta.annotations, `${path}.metadata.annotations`),
    ...validatePodSpec(isObj(template.spec) ? template.spec : {}, `${path}.spec`),
  ];
}

/** A Pod's spec rules (its metadata is validated by the caller). */
export function validatePod(pod: Obj): FieldError[] {
  return validatePodSpec(isObj(pod.spec) ? pod.spec : {}, 'spec');
}
