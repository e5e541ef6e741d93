/**
 * The ephemeralcontainers subresource's validation (core/validation v1.26):
 * validateEphemeralContainers (the container rules, names unique across every container list,
 * targetContainerName naming a container or init container, the fields an ephemeral container
 * may not set, no subPath mounts) and ValidatePodEphemeralContainersUpdate (static pods refuse
 * them; an existing one may not be removed or changed). Pure.
 */
import { duplicateField, forbiddenField, notFoundField, type FieldError } from './field-errors';
import { validateContainerCommon, validateContainersOnlyForPod } from './pod-container-validation';
import { MIRROR_POD_ANNOTATION, validatePodMetadataAndSpec } from './pod-validation';
import { validateVolumes } from './pod-volume-validation';
import { semanticEqual } from './workload-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const CANNOT_SET = 'cannot be set for an Ephemeral Container';

/** EphemeralContainerCommon's fields not in allowedEphemeralContainerFields, in Go struct order. */
const REFUSED_FIELDS = ['ports', 'resources', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];


/** validateEphemeralContainers: `spec`'s ephemeral containers at `spec.ephemeralContainers`. */
export function validateEphemeralContainers(spec: Obj): FieldError[] {
  const ephemeral = list(spec.ephemeralContainers);
  if (ephemeral.length === 0) return [];
  const { volumes } = validateVolumes(list(spec.volumes), 'spec.volumes');
  const others = new Set([...list(spec.containers), ...list(spec.initContainers)].map((c) => str(c.name)));
  const all = new Set(others);
  const errs: FieldError[] = [];
  ephemeral.forEach((ec, i) => {
    const path = `spec.ephemeralContainers[${i}]`;
    errs.push(...validateContainerCommon(ec, volumes, path));
    errs.push(...validateContainersOnlyForPod([ec], 'spec.ephemeralContainers').map((e) => ({ ...e, field: e.field.replace('[0]', `[${i}]`) })));
    const name = str(ec.name);
    if (all.has(name)) errs.push(duplicateField(`${path}.name`, name));
    else all.add(name);
    const target = str(ec.targetContainerName);
    if (target !== '' && !others.has(target)) errs.push(notFoundField(`${path}.targetContainerName`, target));
    for (const field of REFUSED_FIELDS) if (!semanticEqual(ec[field], undefined)) errs.push(forbiddenField(`${path}.${field}`, CANNOT_SET));
    list(ec.volumeMounts).forEach((m, j) => {
      if (str(m.subPath) !== '') errs.push(forbiddenField(`${path}.volumeMounts[${j}].subPath`, CANNOT_SET));
      if (str(m.subPathExpr) !== '') errs.push(forbiddenField(`${path}.volumeMounts[${j}].subPathExpr`, CANNOT_SET));
    });
  });
  return errs;
}

/**
 * ValidatePodEphemeralContainersUpdate without ValidateObjectMetaUpdate (the update path's): the
 * Pod's spec with its ephemeral containers; a static (mirror) pod takes none; each existing one
 * is still there, unchanged. Go's "may not be changed" message ends with a cmp.Diff of the two
 * containers, which this port does not reproduce.
 */
export function validatePodEphemeralContainersUpdate(next: Obj, old: Obj): FieldError[] {
  const spec = isPlainObject(next.spec) ? next.spec : {};
  const errs = [...validatePodMetadataAndSpec(next), ...validateEphemeralContainers(spec)];
  if (isPlainObject(old.metadata?.annotations) && MIRROR_POD_ANNOTATION in old.metadata.annotations) {
    return [forbiddenField('', 'static pods do not support ephemeral containers')];
  }
  const byName = new Map(list(spec.ephemeralContainers).map((c) => [str(c.name), c]));
  for (const prior of list(old.spec?.ephemeralContainers)) {
    const name = str(prior.name);
    const now = byName.get(name);
    if (!now) errs.push(forbiddenField('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`));
    else if (!semanticEqual(prior, now)) errs.push(forbiddenField(`spec.ephemeralContainers[${name}]`, `existing ephemeral containers ${JSON.stringify(name)} may not be changed\n`));
  }
  return errs;
}
