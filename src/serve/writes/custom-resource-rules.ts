/**
 * What the apiserver's custom resource strategy does on a write, from the CRD: status kept apart
 * when the status subresource is on (a create drops it), structural defaults applied, the object
 * validated against the version's schema (Ajv, src/schema/crd-validation.ts) and, with the scale
 * subresource, the replicas at `specReplicasPath` checked (the extra `.spec.replicas` cause).
 */
import { invalidField, type FieldError } from '../../k8s/field-errors';
import { applyStructuralDefaults } from '../../schema';
import type { CustomResourceType } from '../crds/custom-resource-type';

type Obj = Record<string, any>;

/** Defaults and validation of a custom resource about to be stored; returns the field errors. */
export function prepareCustomResource(custom: CustomResourceType, obj: Obj, isCreate: boolean): FieldError[] {
  if (isCreate && custom.status) delete obj.status;
  applyStructuralDefaults(obj, custom.schema);
  return [...custom.validate(obj), ...scaleErrors(custom, obj)];
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
