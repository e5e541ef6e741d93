/**
 * The `/scale` subresource of a custom resource whose CRD declares it (w8-get-cr-scale,
 * w8-patch-cr-scale, w8-get-cr-after-scale): an autoscaling/v1 Scale read from
 * `specReplicasPath`, `statusReplicasPath` and `labelSelectorPath`; PUT/PATCH set the parent's
 * spec replicas (generation +1; the write adds no managedFields entry of its own, the field
 * just leaves its previous owner).
 */
import { invalidField } from '../../k8s/field-errors';
import { parseWriteOptions } from '../../k8s/write-options';
import { notFound, resourceNotFound } from '../../k8s/status';
import { invalidObject, methodNotAllowedHere, patchRejected, writeConflict, OBJECT_MODIFIED } from '../../k8s/write-status';
import type { ManagedFieldsEntry } from '../../k8s/managed-fields';
import type { ResourceRequest } from '../resource-request';
import { writeOptionsJson } from '../../k8s/admission-review';
import { admissionOf, admissionRequest, unchangedSince } from './admission-hooks';
import { convertedObject, convertForStore, convertsByWebhook } from './custom-conversion';
import { valueAtPath, setAtPath } from './custom-resource-rules';
import { patcherFor } from './patchers';
import { prepareUpdate } from './prepare';
import { checkBodyType, readBody } from './request-body';
import { commitObject, currentObject, currentRevision, keyOf, respondJson, sameObject, finalObject } from './stored-write';
import type { WriteDeps } from './write-deps';
import { actor, writeTarget } from './write-request';

type Obj = Record<string, any>;

export async function handleCustomScale(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  const custom = ctx.resource.custom;
  if (!custom?.scale) throw resourceNotFound();
  const verb = ctx.info.verb;
  if (verb !== 'get' && verb !== 'update' && verb !== 'patch') throw methodNotAllowedHere();
  const name = ctx.info.name;
  const key = keyOf(ctx, name);
  if (verb === 'get') {
    const current = currentRevision(ctx, deps, key);
    if (!current) throw notFound(ctx.resource.info.resource, name, ctx.resource.info.group);
    return respondJson(ctx, 200, scaleOf(ctx, currentObject(ctx, current)));
  }
  const body = await readBody(ctx.req);
  const options = parseWriteOptions(verb, ctx.info.query);
  const admission = admissionOf(ctx, deps);
  for (let attempt = 1; ; attempt++) {
    const current = currentRevision(ctx, deps, key);
    if (!current) throw notFound(ctx.resource.info.resource, name, ctx.resource.info.group);
    const old = currentObject(ctx, current);
    let scale: Obj;
    if (verb === 'update') {
      checkBodyType(ctx.req.headers['content-type'], ctx.resource);
      scale = JSON.parse(body.toString('utf8')) as Obj;
    } else {
      scale = patcherFor(deps.patchers, ctx.req.headers['content-type'])({ current: scaleOf(ctx, old), patch: body });
    }
    if (!scale || typeof scale !== 'object' || Array.isArray(scale)) throw patchRejected();
    // Webhooks see the Scale the write asks for and the current one (kind autoscaling/v1 Scale).
    const request = admission && { ...admissionRequest(ctx, 'UPDATE', name, options.dryRun, writeOptionsJson('UpdateOptions', options)), kind: 'Scale', kindApiVersion: 'autoscaling/v1', settle: (o: Obj) => o };
    if (admission && request) scale = (await admission.mutate(request, scale, scaleOf(ctx, old)))!;
    const rv = scale.metadata?.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw writeConflict(ctx.resource.info.resource, ctx.resource.info.group, name, OBJECT_MODIFIED);
    const replicas = scale.spec?.replicas ?? 0;
    if (!Number.isInteger(replicas) || replicas < 0) {
      throw invalidObject('Scale', 'autoscaling', name, [invalidField('spec.replicas', replicas, 'must be greater than or equal to 0')]);
    }
    const next = structuredClone(old);
    setAtPath(next, custom.scale.specReplicasPath, replicas);
    const result = prepareUpdate(old, next, writeTarget(ctx), actor(ctx, deps, options.fieldManager), { verb: 'update', subresource: 'scale' });
    const entries = ((result.metadata.managedFields ?? []) as ManagedFieldsEntry[]).filter((e) => e.subresource !== 'scale');
    if (entries.length > 0) result.metadata.managedFields = entries;
    else delete result.metadata.managedFields;
    const final = finalObject(ctx, result);
    if (admission && request) await admission.validate(request, scaleOf(ctx, final), scaleOf(ctx, old));
    const unstoredAnswer = sameObject(final, finalObject(ctx, old)) || options.dryRun;
    // The apiserver encodes the object for etcd even when it stores nothing (a no-op, dry run): in a
    // version other than the storage version, that is a call of the conversion webhook.
    if (convertsByWebhook(ctx) && (!unstoredAnswer || custom.version !== custom.storageVersion)) await convertForStore(ctx, deps, final);
    if (unstoredAnswer) return respondJson(ctx, 200, scaleOf(ctx, final));
    // The object changed while a webhook was called: start again from the new state (the 409 when the Scale named a resourceVersion).
    if ((admission || convertsByWebhook(ctx)) && !unchangedSince(ctx, deps, key, current, attempt)) continue;
    const stored = commitObject(ctx, deps, key, final);
    return respondJson(ctx, 200, scaleOf(ctx, convertedObject(stored, ctx.resource.codec.type.apiVersion) ?? stored.object));
  }
}

/** The autoscaling/v1 Scale of a custom resource. */
function scaleOf(ctx: ResourceRequest, obj: Obj): Obj {
  const scale = ctx.resource.custom!.scale!;
  const meta = obj.metadata ?? {};
  const metadata: Obj = { name: meta.name };
  if (meta.namespace) metadata.namespace = meta.namespace;
  Object.assign(metadata, { uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp });
  const status: Obj = { replicas: numberOr0(valueAtPath(obj, scale.statusReplicasPath)) };
  const selector = scale.labelSelectorPath ? valueAtPath(obj, scale.labelSelectorPath) : undefined;
  if (typeof selector === 'string' && selector) status.selector = selector;
  return { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata, spec: { replicas: numberOr0(valueAtPath(obj, scale.specReplicasPath)) }, status };
}

function numberOr0(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}
