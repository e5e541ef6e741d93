/**
 * PATCH: the patch (merge, JSON, and whatever `patchers` holds) applied to the live object, then
 * the update path. An apply patch on a missing object creates it (201) through the create path.
 */
import { writeOptionsJson } from '../../k8s/admission-review';
import { parseWriteOptions, type WriteOptions } from '../../k8s/write-options';
import { notFound, resourceNotFound } from '../../k8s/status';
import { alreadyExists, badRequestMessage, patchRejected } from '../../k8s/write-status';
import type { StoredObject } from '../../reconstruct';
import type { Revision } from '../../store/revision';
import type { ResourceRequest } from '../resource-request';
import { admitPodInTree, NAMESPACE_MISMATCH } from './create';
import { admitServiceAccount } from './service-account-admission';
import { settleAppliedNulls, validateApplyBody, validatePatchedFields } from './field-validation';
import { checkPatchedFieldTypes } from './field-types';
import { applyBodyJson } from './apply-patcher';
import { freezeObject, isFrozenWrite } from '../../wire/frozen-tree';
import { APPLY_PATCH, patcherFor, type ApplyContext, type Patcher, type PatchReport } from './patchers';
import { admissionOf, admissionRequest, unchangedSince, type Admission } from './admission-hooks';
import { convertForStore, convertsByWebhook } from './custom-conversion';
import { admissionView, prepareCreate, prepareUpdate, updateManagedFields, withManagedFields, type Actor, type WriteTarget } from './prepare';
import { checkObject, readBody } from './request-body';
import { commitObject, currentObject, currentReadOnly, currentRevision, keyOf, respondObject, unstored } from './stored-write';
import { finishUpdate } from './update';
import { updatesThroughSubresource } from './resource-rules';
import { timestamp, type WriteDeps } from './write-deps';
import { actor, admitNamespace, servedKinds, writeTarget } from './write-request';
import { isPlainObject } from '../../wire/json-object';

type Obj = Record<string, any>;

export async function handlePatch(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  const target = writeTarget(ctx);
  if (ctx.info.subresource && !updatesThroughSubresource(ctx.info.subresource, ctx.resource.info.group, ctx.resource.info.resource, target.rules.hasStatus)) throw resourceNotFound();
  const contentType = ctx.req.headers['content-type'];
  const patcher = patcherFor(deps.patchers, contentType);
  const body = await readBody(ctx.req);
  const isApply = (contentType ?? '').split(';')[0]!.trim() === APPLY_PATCH;
  const options = parseWriteOptions('patch', ctx.info.query, isApply);
  const name = ctx.info.name;
  const key = keyOf(ctx, name);
  const current = currentRevision(ctx, deps, key);
  if (!current && !isApply) throw notFound(ctx.resource.info.resource, name, ctx.resource.info.group);
  const { kind, apiVersion } = ctx.resource.codec.type;
  const fresh = (): Obj => (current ? currentObject(ctx, current) : { kind, apiVersion, metadata: {} });
  // Read only: the patcher changes the copy fresh() gives it, or shares the frozen `old`.
  const old = current ? currentReadOnly(ctx, current) : fresh();
  const who = actor(ctx, deps, options.fieldManager);
  const apply = isApply ? applyContext(target, who, options.force, ctx.info.subresource) : undefined;
  const json = isApply ? applyBodyJson(body) : undefined;
  if (isApply) validateApplyBody(ctx, body, options.fieldValidation, json);
  const attempt: PatchAttempt = { ctx, deps, current, old, patcher, body, json, contentType, isApply, options, target, who, apply };
  const admission = admissionOf(ctx, deps);
  if (admission || convertsByWebhook(ctx)) return patchAdmitted(attempt, key, admission);
  let updated: Obj | undefined;
  if (current && patcher.sharesLive === true && sharesLive(ctx, target)) {
    const warnings = ctx.res.getHeader('Warning');
    try {
      updated = patchedObject(attempt, freezeObject(old as Obj), true);
    } catch (err) {
      if (!isFrozenWrite(err)) throw err;
      // A step after the patcher changes what the result shares with the stored object: again from a copy.
      if (warnings === undefined) ctx.res.removeHeader('Warning');
      else ctx.res.setHeader('Warning', warnings);
      attempt.json = isApply ? applyBodyJson(body) : undefined;
    }
  }
  updated ??= patchedObject(attempt, fresh(), false);
  if (!current) return createByApply(ctx, deps, key, updated, target, who, options);
  // Stored (and heard by the store's listeners) once, outside the attempt that may start again.
  finishUpdate(ctx, deps, key, current, old, updated, options.dryRun);
}

interface PatchAttempt {
  ctx: ResourceRequest;
  deps: WriteDeps;
  current: Revision<StoredObject> | undefined;
  old: Readonly<Obj>;
  patcher: Patcher;
  body: Buffer;
  json: Obj | undefined;
  contentType: string | undefined;
  isApply: boolean;
  options: WriteOptions;
  target: WriteTarget;
  who: Actor;
  apply: ApplyContext | undefined;
}

/**
 * The built-in kinds whose steps after the patcher change only what the patch changed, without
 * drawing from the random source (a Service's allocations do), may share the stored object's
 * unchanged subtrees; custom resources and CRDs are defaulted and pruned deep, and get a copy.
 */
function sharesLive(ctx: ResourceRequest, target: WriteTarget): boolean {
  return target.rules.builtin && !ctx.resource.custom && !COPIED_KINDS.has(ctx.resource.codec.type.kind);
}
const COPIED_KINDS = new Set(['Service', 'CustomResourceDefinition']);

/**
 * The patch applied to `base` (a copy, or with `shared` the frozen stored object) and checked;
 * then, for an existing object, the update's result (nothing stored yet).
 */
function patchedObject(a: PatchAttempt, base: Obj, shared: boolean): Obj {
  const patched = patchResult(a, base, shared);
  if (!a.current) return patched;
  return prepareUpdate(a.old, patched, a.target, a.who, { verb: 'patch', subresource: a.ctx.info.subresource, appliedFields: a.isApply });
}

/** The patch applied to `base` and checked: the object the update path (or an apply's create) starts from. */
function patchResult(a: PatchAttempt, base: Obj, shared: boolean): Obj {
  const { ctx, deps, contentType, isApply, options, apply } = a;
  const name = ctx.info.name;
  const report: PatchReport = {};
  let patched = a.patcher({ current: base, patch: a.body, json: a.json, report, apply, resource: ctx.resource });
  if (!patched || typeof patched !== 'object' || Array.isArray(patched)) throw patchRejected();
  // The update path sets system fields on the object and its metadata: its own copies of both.
  if (shared) patched = { ...patched, ...(isPlainObject(patched.metadata) ? { metadata: { ...patched.metadata } } : {}) };
  checkObject(patched, ctx.resource, servedKinds(ctx, deps));
  const result = patched;
  checkPatchedFieldTypes(ctx, result, contentType, () => report.strictValue?.() ?? patchedJson(result));
  if (!isApply) validatePatchedFields(ctx, result, options.fieldValidation, () => report.strictValue?.() ?? patchedJson(result));
  else settleAppliedNulls(ctx, result);
  const patchedName = patched.metadata.name ?? '';
  if (patchedName !== name) throw badRequestMessage(`the name of the object (${patchedName}) does not match the name on the URL (${name})`);
  if (ctx.resource.namespaced && (patched.metadata.namespace ?? ctx.info.namespace) !== ctx.info.namespace) throw badRequestMessage(NAMESPACE_MISMATCH);
  return patched;
}

/**
 * A patch that awaits webhooks (admission, a CRD's conversion): on a copy of the current state,
 * the mutating webhooks between the patch and the update path, the validating ones and the
 * conversion before the store; a change of the object meanwhile starts again from the new state
 * (the patch is applied anew, as the apiserver retries).
 */
async function patchAdmitted(first: PatchAttempt, key: string, admission: Admission | undefined): Promise<void> {
  const { ctx, deps, isApply, options, target, who, body } = first;
  const { kind, apiVersion } = ctx.resource.codec.type;
  for (let attempt = 1; ; attempt++) {
    const current = attempt === 1 ? first.current : currentRevision(ctx, deps, key);
    if (!current && !isApply) throw notFound(ctx.resource.info.resource, ctx.info.name, ctx.resource.info.group);
    const fresh = current ? currentObject(ctx, current) : { kind, apiVersion, metadata: {} };
    const old = current ? currentReadOnly(ctx, current) : fresh;
    const a: PatchAttempt = { ...first, current, old, json: attempt === 1 ? first.json : isApply ? applyBodyJson(body) : undefined };
    const patched = patchResult(a, fresh, false);
    if (!current) return createByApply(ctx, deps, key, patched, target, who, options);
    const request = admission && admissionRequest(ctx, 'UPDATE', ctx.info.name, options.dryRun, writeOptionsJson('UpdateOptions', options), old);
    const mode = { verb: 'patch', subresource: ctx.info.subresource, appliedFields: isApply } as const;
    // The writer's managedFields are recorded before admission (webhooks see them; their changes are no manager's).
    const recorded = admission ? updateManagedFields(old, patched, target, who, mode) : undefined;
    const next = admission && request ? (await admission.mutate(request, withManagedFields(admissionView(patched, target, old), recorded), old))! : patched;
    const result = prepareUpdate(old, next, target, who, { ...mode, recorded });
    if (admission && request) await admission.validate(request, result, old);
    if (convertsByWebhook(ctx)) await convertForStore(ctx, deps, result);
    if (unchangedSince(ctx, deps, key, current, attempt)) return finishUpdate(ctx, deps, key, current, old, result, options.dryRun);
  }
}

/** The patched object as the apiserver prints it for merge and JSON patches: top-level keys sorted. */
function patchedJson(obj: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]])));
}

function applyContext(target: WriteTarget, who: Actor, force: boolean, subresource: string): ApplyContext {
  const scope = subresource === 'status' ? 'status' : target.rules.hasStatus ? 'main' : 'all';
  const context: ApplyContext = { manager: who.manager, force, time: timestamp(who.now), scope };
  if (subresource) context.subresource = subresource;
  return context;
}

async function createByApply(ctx: ResourceRequest, deps: WriteDeps, key: string, obj: Obj, target: WriteTarget, who: Actor, options: WriteOptions): Promise<void> {
  if (ctx.info.subresource) throw notFound(ctx.resource.info.resource, ctx.info.name, ctx.resource.info.group);
  admitNamespace(ctx, deps, ctx.info.name);
  const admission = admissionOf(ctx, deps);
  const request = admission && admissionRequest(ctx, 'CREATE', ctx.info.name, options.dryRun, writeOptionsJson('CreateOptions', options));
  const isPod = ctx.resource.info.group === '' && ctx.resource.info.resource === 'pods';
  if (admission && request) {
    const view = admissionView(obj, target);
    if (isPod) admitPodInTree(view, target.namespace, deps);
    obj = (await admission.mutate(request, view, undefined))!;
  }
  const prepared = prepareCreate(obj, target, who, true);
  // The ServiceAccount plugin admits a Pod an apply creates as it admits a POSTed one.
  if (isPod && !admission) admitServiceAccount(prepared, target.namespace, deps);
  if (admission && request) await admission.validate(request, prepared, undefined);
  if (convertsByWebhook(ctx)) await convertForStore(ctx, deps, prepared);
  if (currentRevision(ctx, deps, key)) throw alreadyExists(ctx.resource.info.resource, ctx.resource.info.group, prepared.metadata.name);
  respondObject(ctx, 201, options.dryRun ? unstored(ctx, prepared) : commitObject(ctx, deps, key, prepared));
}
