/**
 * What the apiserver's custom resource strategy does on a write, from the CRD: status kept apart
 * when the status subresource is on (a create drops it), structural defaults applied, the object
 * validated against the version's schema (Ajv, src/schema/crd-validation.ts), with the scale
 * subresource the replicas at `specReplicasPath` checked (the extra `.spec.replicas` cause), then
 * the version's CEL rules (src/schema/cel-validator.ts) — unless an earlier error is one that
 * keeps the apiserver from running them (hasBlockingErr), which adds its own error instead.
 */
import { invalidField, type FieldError, type FieldErrorType } from '../../k8s/field-errors';
import { applyStructuralDefaults } from '../../schema';
import type { CustomResourceType } from '../crds/custom-resource-type';

type Obj = Record<string, any>;

/** Errors that keep the rules from being evaluated (hasBlockingErr: Required, TooLong, TooMany, TypeInvalid). */
const BLOCKING: ReadonlySet<FieldErrorType> = new Set<FieldErrorType>(['Required', 'TooLong', 'TooMany', 'TypeInvalid']);

/** The status kept apart on create and the schema's defaults applied, before a custom resource is validated or its fields recorded. */
export function normaliseCustomResource(custom: CustomResourceType, obj: Obj, isCreate: boolean): void {
  if (isCreate && custom.status) delete obj.status;
  applyStructuralDefaults(obj, custom.schema);
}

/**
 * The custom resource's own errors, after `earlier` (the metadata's): its schema's, the scale
 * replicas', then its CEL rules' (`old`: the stored state on update).
 */
export function customResourceErrors(custom: CustomResourceType, obj: Obj, old: Obj | undefined, earlier: readonly FieldError[]): FieldError[] {
  const errs = [...custom.validate(obj), ...scaleErrors(custom, obj)];
  if (!custom.rules) return errs;
  if ([...earlier, ...errs].some((e) => BLOCKING.has(e.type))) {
    return [...errs, invalidField('<nil>', undefined, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
  }
  return [...errs, ...custom.rules(obj, old)];
}

function scaleErrors(custom: CustomResourceType, obj: Obj): FieldError[] {
  if (!custom.scale) return [];
  const path = custom.scale.specReplicasPath;
  const value = valueAtPath(obj, path);
  if (value === undefined || value === null) return [];
  if (!Number.isInteger(value) || (value as number) < 0) return [invalidField(path, typeof value === 'number' ? value : JSON.stringify(value), 'should be a non-negative integer')];
  return [];
}

/** The value at a `.spec.replicas` style path. */
export function valueAtPath(obj: Obj, path: string): unknown {
  let v: any = obj;
  for (const part of path.split('.').filter(Boolean)) v = v && typeof v === 'object' ? v[part] : undefined;
  return v;
}

/** Sets the value at a `.spec.replicas` style path, creating the maps on the way. */
export function setAtPath(obj: Obj, path: string, value: unknown): void {
  const parts = path.split('.').filter(Boolean);
  let v: Obj = obj;
  for (const part of parts.slice(0, -1)) v = (v[part] && typeof v[part] === 'object' ? v[part] : (v[part] = {})) as Obj;
  v[parts[parts.length - 1]!] = value;
}
