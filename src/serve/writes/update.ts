/** PUT: update (200), create for the kinds that allow it (201), and the end of every update (no-op, last finalizer, dry run). */
import { parseWriteOptions } from '../../k8s/write-options';
import { notFound, resourceNotFound } from '../../k8s/status';
import { invalidField } from '../../k8s/field-errors';
import { writeOptionsJson } from '../../k8s/admission-review';
import { badRequestMessage, invalidObject } from '../../k8s/write-status';
import type { StoredObject } from '../../reconstruct';
import type { Revision } from '../../store/revision';
import type { ResourceRequest } from '../resource-request';
import { createObject, NAMESPACE_MISMATCH } from './create';
import { admissionOf, admissionRequest, unchangedSince } from './admission-hooks';
import { convertForStore, convertsByWebhook } from './custom-conversion';
import { admissionView, prepareUpdate, updateManagedFields, withManagedFields, type UpdateMode } from './prepare';
import { checkBodyType, decodeObject, readBody } from './request-body';
import { commitDeletion, commitObject, currentReadOnly, currentRevision, finalObject, keyOf, respondObject, sameObject, unstored } from './stored-write';
import { validateDecodedFields } from './field-validation';
import { updatesThroughSubresource } from './resource-rules';
import { goJson } from '../../wire/json-spans';
import { WrittenObject } from './written-object';
import type { WriteDeps } from './write-deps';
import { actor, admitNamespace, servedKinds, writeTarget } from './write-request';

type Obj = Record<string, any>;

export async function handleUpdate(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  const target = writeTarget(ctx);
  if (ctx.info.subresource && !updatesThroughSubresource(ctx.info.subresource, ctx.resource.info.group, ctx.resource.info.resource, target.rules.hasStatus)) throw resourceNotFound();
  const contentType = checkBodyType(ctx.req.headers['content-type'], ctx.resource);
  const body = await readBody(ctx.req);
  const options = parseWriteOptions('update', ctx.info.query);
  const obj = decodeObject(body, contentType, ctx.resource, servedKinds(ctx, deps));
  validateDecodedFields(ctx, obj, options.fieldValidation, body, contentType);
  const name = ctx.info.name;
  const bodyName = obj.metadata.name as string | undefined;
  if (!bodyName) throw badRequestMessage(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  if (bodyName !== name) throw badRequestMessage(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
  if (ctx.resource.namespaced && obj.metadata.namespace && obj.metadata.namespace !== ctx.info.namespace) throw badRequestMessage(NAMESPACE_MISMATCH);
  const key = keyOf(ctx, name);
  const admission = admissionOf(ctx, deps);
  for (let attempt = 1; ; attempt++) {
    const current = currentRevision(ctx, deps, key);
    if (!current) {
      if (!target.rules.createOnUpdate || ctx.info.subresource) throw notFound(ctx.resource.info.resource, name, ctx.resource.info.group);
      admitNamespace(ctx, deps, name);
      return createObject(ctx, deps, obj, options);
    }
    const old = currentReadOnly(ctx, current);
    const who = actor(ctx, deps, options.fieldManager);
    const mode = { verb: 'update', subresource: ctx.info.subresource } as const;
    const converts = convertsByWebhook(ctx);
    if (!admission && !converts) {
      requireResourceVersion(ctx, obj, name);
      return finishUpdate(ctx, deps, key, current, old, prepareUpdate(old, obj, target, who, mode), options.dryRun);
    }
    // Webhooks see this attempt's own copy: a change meanwhile starts the update again from the new state.
    const request = admission && admissionRequest(ctx, 'UPDATE', name, options.dryRun, writeOptionsJson('UpdateOptions', options), old);
    // The writer's managedFields are recorded before admission (webhooks see them; their changes are no manager's).
    const recorded = admission ? updateManagedFields(old, obj, target, who, mode) : undefined;
    const next = admission && request ? (await admission.mutate(request, withManagedFields(admissionView(structuredClone(obj), target, old), recorded), old))! : structuredClone(obj);
    // The store checks the resourceVersion of the object the mutating webhooks return.
    requireResourceVersion(ctx, next, name);
    const result = prepareUpdate(old, next, target, who, { ...mode, recorded });
    if (admission && request) await admission.validate(request, result, old);
    if (converts) await convertForStore(ctx, deps, result);
    if (unchangedSince(ctx, deps, key, current, attempt)) return finishUpdate(ctx, deps, key, current, old, result, options.dryRun);
  }
}

/** Custom resources allow no unconditional update: the 422 for an object without a resourceVersion. */
function requireResourceVersion(ctx: ResourceRequest, obj: Record<string, any>, name: string): void {
  if (ctx.resource.custom && !obj.metadata?.resourceVersion) {
    throw invalidObject(ctx.resource.info.resource, ctx.resource.info.group, name, [invalidField('metadata.resourceVersion', { goSyntax: '0x0' }, 'must be specified for an update')]);
  }
}

/**
 * Stores an update's result and answers 200 (through `respond`: the object, or what a subresource shows of it): nothing when it changes nothing (same
 * resourceVersion, no event); the deletion when it removes the last finalizer of an object being
 * deleted (the answer shows the object without finalizers at the old resourceVersion, the
 * DELETED event the object as last stored); the new state otherwise. Dry run stores nothing.
 */
export function finishUpdate(
  ctx: ResourceRequest, deps: WriteDeps, key: string, current: Revision<StoredObject>, old: Obj, result: Obj, dryRun: boolean,
  respond: (code: number, value: StoredObject) => void = (code, value) => respondObject(ctx, code, value),
): void {
  const final = finalObject(ctx, result);
  if (old.metadata?.deletionTimestamp && !(final.metadata?.finalizers?.length > 0) && !keptBySpecFinalizers(ctx, final)) {
    // A custom resource's converted forms go with its last state.
    if (!dryRun) commitDeletion(ctx, deps, key, old, ctx.resource.custom ? current.value : undefined);
    respond(200, unstored(ctx, final));
    return;
  }
  const stored = current.value;
  if (stored instanceof WrittenObject && !ctx.resource.custom && final.metadata?.resourceVersion !== undefined) {
    // The stored text is goJson of the current state in key order: the same text is the same object.
    const json = goJson(final);
    if (json === stored.json) respond(200, stored);
    else respond(200, dryRun ? new WrittenObject(final, json) : commitObject(ctx, deps, key, final, json));
    return;
  }
  if (sameObject(final, stored instanceof WrittenObject ? old : finalObject(ctx, old))) {
    respond(200, stored);
    return;
  }
  respond(200, dryRun ? unstored(ctx, final) : commitObject(ctx, deps, key, final));
}

/** A Namespace's `spec.finalizers` also keep it while it is being deleted. */
function keptBySpecFinalizers(ctx: ResourceRequest, obj: Obj): boolean {
  return ctx.resource.info.group === '' && ctx.resource.info.resource === 'namespaces' && obj.spec?.finalizers?.length > 0;
}

export type { UpdateMode };
