/**
 * The `default`s of a structural CRD schema as v1.26 checks them (pkg/apiserver/schema/defaulting:
 * ValidateDefaults): each default must survive pruning unchanged ("must not have unknown fields")
 * and must validate against the schema it sits in. The root is treated as an embedded resource,
 * so defaults under its `apiVersion`, `kind` and `metadata` are checked as values only (the
 * ObjectMeta coercion of those is not done here); `additionalProperties` is not followed, as in
 * Go. Properties are visited in key order. Pure.
 */
import { invalidField, type FieldError } from './field-errors';
import { goJsonSyntax } from './go-schema-props-syntax';
import { validateSchemaValue } from './schema-value-validation';
import { isPlainObject, sameJsonContent } from '../wire/json-object';

type Obj = Record<string, any>;

const hasDefault = (s: Obj): boolean => s.default !== undefined && s.default !== null;
const META = new Set(['metadata', 'apiVersion', 'kind']);

/** ValidateDefaults(path, schema, isResourceRoot=true, requirePrunedDefaults). */
export function validateSchemaDefaults(path: string, root: Obj, requirePrunedDefaults: boolean): FieldError[] {
  return walk(path, { ...root, 'x-kubernetes-embedded-resource': true }, false, requirePrunedDefaults);
}

function walk(path: string, s: Obj, insideMeta: boolean, requirePruned: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded) insideMeta = false;
  if (hasDefault(s)) {
    const value = s.default;
    if (!insideMeta && requirePruned) {
      const pruned = structuredClone(value);
      prune(pruned, s, embedded);
      if (!sameJsonContent(pruned, value)) errs.push(invalidField(`${path}.default`, shown(value), 'must not have unknown fields'));
    }
    errs.push(...validateSchemaValue(`${path}.default`, value, s));
  }
  if (isPlainObject(s.items)) errs.push(...walk(`${path}.items`, s.items, insideMeta, requirePruned));
  if (isPlainObject(s.properties)) {
    for (const k of Object.keys(s.properties).sort()) {
      const sub = s.properties[k];
      if (!isPlainObject(sub)) continue;
      errs.push(...walk(`${path}.properties[${k}]`, sub, insideMeta || (embedded && META.has(k)), requirePruned));
    }
  }
  return errs;
}

/** A default as field errors show it: scalars plainly, maps and lists in Go syntax. */
function shown(v: unknown) {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : { goSyntax: goJsonSyntax(v) };
}

/** pruning.Prune: drops the fields the schema does not specify (kept under x-kubernetes-preserve-unknown-fields). */
export function prune(x: unknown, s: Obj | undefined, isResourceRoot: boolean): void {
  if (s && s['x-kubernetes-preserve-unknown-fields'] === true) {
    skipPrune(x, s);
    return;
  }
  if (Array.isArray(x)) {
    const items = s && isPlainObject(s.items) ? s.items : undefined;
    for (const v of x) prune(v, items, items?.['x-kubernetes-embedded-resource'] === true);
    return;
  }
  if (!isPlainObject(x)) return;
  if (!s) {
    for (const k of Object.keys(x)) delete x[k];
    return;
  }
  const props = isPlainObject(s.properties) ? s.properties : {};
  for (const k of Object.keys(x)) {
    if (isResourceRoot && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue;
    const prop = isPlainObject(props[k]) ? props[k] : undefined;
    if (prop) prune(x[k], prop, prop['x-kubernetes-embedded-resource'] === true);
    else if (s.additionalProperties !== undefined && s.additionalProperties !== null && s.additionalProperties !== false) {
      const ap = isPlainObject(s.additionalProperties) ? s.additionalProperties : undefined;
      prune(x[k], ap, ap?.['x-kubernetes-embedded-resource'] === true);
    } else delete x[k];
  }
}

function skipPrune(x: unknown, s: Obj): void {
  if (Array.isArray(x)) {
    const items = isPlainObject(s.items) ? s.items : undefined;
    if (items) for (const v of x) prune(v, items, items['x-kubernetes-embedded-resource'] === true);
    return;
  }
  if (!isPlainObject(x)) return;
  const props = isPlainObject(s.properties) ? s.properties : {};
  const ap = isPlainObject(s.additionalProperties) ? s.additionalProperties : undefined;
  for (const k of Object.keys(x)) {
    const prop = isPlainObject(props[k]) ? props[k] : ap;
    if (prop) prune(x[k], prop, prop['x-kubernetes-embedded-resource'] === true);
  }
}
