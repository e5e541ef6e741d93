/**
 * The `scale` subresource (autoscaling/v1 Scale) of deployments, replicasets, statefulsets and
 * replicationcontrollers: GET, PUT and PATCH read and set the parent's spec.replicas
 * (reference/apiserver-facts-writes.md "Status, scale, generation", w7-*). A write is an update
 * of the parent — resourceVersion precondition, generation +1, one revision — whose
 * managedFields entry is `{"f:spec":{"f:replicas":{}}}` with subresource `scale` and no time.
 */
import { sortEntries, type ManagedFieldsEntry } from '../../k8s/managed-fields';
import { formatLabelSelector } from '../../k8s/label-selector-format';
import { invalidField } from '../../k8s/field-errors';
import { notFound, resourceNotFound } from '../../k8s/status';
import { parseWriteOptions } from '../../k8s/write-options';
import { badRequestMessage, invalidObject, methodNotAllowedHere, storageError, writeConflict, OBJECT_MODIFIED } from '../../k8s/write-status';
import type { StoredObject } from '../../reconstruct';
import { builtinProtobuf } from '../builtin-protobuf';
import { negotiate } from '../negotiate';
import type { ResourceRequest } from '../resource-request';
import { writeBody } from '../response-body';
import type { ServedResource } from '../served-resources';
import { goJson } from '../../wire/json-spans';
import { NAMESPACE_MISMATCH } from './create';
import { writeOptionsJson } from '../../k8s/admission-review';
import { admissionOf, admissionRequest, unchangedSince } from './admission-hooks';
import { APPLY_PATCH, patcherFor } from './patchers';
import { prepareUpdate } from './prepare';
import { checkBodyType, decodeObject, readBody } from './request-body';
import { currentObject, currentRevision, keyOf } from './stored-write';
import { finishUpdate } from './update';
import type { WriteDeps } from './write-deps';
import { actor, writeTarget } from './write-request';
import { objectOf } from './written-object';

type Obj = Record<string, any>;

/** `group/resource` of the built-ins with a scale subresource (v1.26 discovery). */
const SCALABLE = new Set(['apps/deployments', 'apps/replicasets', 'apps/statefulsets', '/replicationcontrollers']);

export function hasScale(resource: ServedResource): boolean {
  return !resource.info.unstructured && SCALABLE.has(`${resource.info.group}/${resource.info.resource}`);
}

const SCALE_TYPE = { kind: 'Scale', apiVersion: 'autoscaling/v1' };
const SCALE_MESSAGE = 'k8s.io.api.autoscaling.v1.Scale';

export async function handleScale(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  if (!hasScale(ctx.resource)) throw resourceNotFound();
  const { verb } = ctx.info;
  if (verb !== 'get' && verb !== 'update' && verb !== 'patch') throw methodNotAllowedHere();
  const name = ctx.info.name;
  const key = keyOf(ctx, name);
  let body: Buffer | undefined;
  let contentType = ctx.req.headers['content-type'];
  if (verb === 'update') contentType = checkBodyType(contentType, scaleResource(ctx.resource));
  const patcher = verb === 'patch' ? patcherFor(deps.patchers, contentType) : undefined;
  if (verb !== 'get') body = await readBody(ctx.req);
  const admission = verb === 'get' ? undefined : admissionOf(ctx, deps);
  for (let attempt = 1; ; attempt++) {
    const current = currentRevision(ctx, deps, key);
    if (!current) throw notFound(ctx.resource.info.resource, name, ctx.resource.info.group);
    const old = currentObject(ctx, current);
    if (verb === 'get') return respondScale(ctx, 200, current.value);
    const isApply = (contentType ?? '').split(';')[0]!.trim() === APPLY_PATCH;
    const options = parseWriteOptions(verb, ctx.info.query, isApply);
    let scale = patcher ? patcher({ current: scaleOf(old), patch: body! }) : decodeObject(body!, contentType!, scaleResource(ctx.resource), new Set(['Scale']));
    // Webhooks see the Scale the write asks for and the current one (kind autoscaling/v1 Scale).
    const request = admission && { ...admissionRequest(ctx, 'UPDATE', name, options.dryRun, writeOptionsJson('UpdateOptions', options)), kind: 'Scale', kindApiVersion: 'autoscaling/v1', settle: (o: Obj) => o };
    if (admission && request) scale = (await admission.mutate(request, scale, scaleOf(old)))!;
    const result = scaledObject(ctx, old, scale);
    const prepared = prepareUpdate(old, result, writeTarget(ctx), actor(ctx, deps, options.fieldManager), { verb, subresource: 'scale' });
    untimedScaleEntries(prepared);
    if (admission && request) {
      await admission.validate(request, scaleOf(prepared), scaleOf(old));
      if (!unchangedSince(ctx, deps, key, current, attempt)) continue;
    }
    return finishUpdate(ctx, deps, key, current, old, prepared, options.dryRun, (code, value) => respondScale(ctx, code, value));
  }
}

/** The parent with the Scale's replicas, after the checks the scale registry makes. */
function scaledObject(ctx: ResourceRequest, old: Obj, scale: Obj): Obj {
  const name = ctx.info.name;
  const meta = (scale?.metadata ?? {}) as Obj;
  if (meta.name !== undefined && meta.name !== name) throw badRequestMessage(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
  if (ctx.resource.namespaced && meta.namespace && meta.namespace !== ctx.info.namespace) throw badRequestMessage(NAMESPACE_MISMATCH);
  const rv = meta.resourceVersion;
  if (rv) {
    if (typeof rv !== 'string' || !/^\d+$/.test(rv)) throw storageError(`strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
    if (rv !== old.metadata.resourceVersion) throw writeConflict(ctx.resource.info.resource, ctx.resource.info.group, name, OBJECT_MODIFIED);
  }
  const replicas = scale?.spec?.replicas ?? 0;
  if (!Number.isInteger(replicas)) throw badRequestMessage(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`);
  if (replicas < 0) throw invalidObject('Scale', 'autoscaling', name, [invalidField('spec.replicas', replicas, 'must be greater than or equal to 0')]);
  const result = structuredClone(old);
  result.spec = { ...(result.spec ?? {}), replicas };
  return result;
}

/** The Scale of a parent object, as the apiserver answers it. */
export function scaleOf(obj: Obj): Obj {
  const m = obj.metadata ?? {};
  const metadata: Obj = { name: m.name };
  for (const k of ['namespace', 'uid', 'resourceVersion', 'creationTimestamp']) if (m[k] !== undefined) metadata[k] = m[k];
  const replicas = obj.spec?.replicas ?? 1;
  const status: Obj = { replicas: obj.status?.replicas ?? 0 };
  const selector = obj.kind === 'ReplicationController' ? formatLabelSelector({ matchLabels: obj.spec?.selector }) : formatLabelSelector(obj.spec?.selector);
  if (selector) status.selector = selector;
  return { ...SCALE_TYPE, metadata, spec: replicas ? { replicas } : {}, status };
}

function respondScale(ctx: ResourceRequest, code: number, value: StoredObject): void {
  const scale = scaleOf(objectOf(value, ctx.resource.codec.type));
  const rep = negotiate(ctx.req.headers.accept, { target: 'object', protobufAvailable: true });
  if (rep.format === 'protobuf') writeBody(ctx.req, ctx.res, code, builtinProtobuf().encode(SCALE_MESSAGE, scale), rep.contentType);
  else writeBody(ctx.req, ctx.res, code, goJson(scale), 'application/json');
}

/** The scale handler records its entry without a time (so it sorts first). */
function untimedScaleEntries(obj: Obj): void {
  const entries = obj.metadata?.managedFields as ManagedFieldsEntry[] | undefined;
  if (!entries?.some((e) => e.subresource === 'scale')) return;
  for (const e of entries) if (e.subresource === 'scale') delete e.time;
  obj.metadata.managedFields = sortEntries(entries);
}

/** The parent resource seen as the Scale kind a PUT body must be. */
function scaleResource(parent: ServedResource): ServedResource {
  return {
    ...parent,
    info: { ...parent.info, id: 'autoscaling/v1/Scale', group: 'autoscaling', version: 'v1', kind: 'Scale', unstructured: false },
    codec: { type: SCALE_TYPE } as ServedResource['codec'],
  };
}
