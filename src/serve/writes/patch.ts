/**
 * PATCH: the patch (merge, JSON, and whatever `patchers` holds) applied to the live object, then
 * the update path. An apply patch on a missing object creates it (201) through the create path.
 */
import { parseWriteOptions } from '../../k8s/write-options';
import { notFound, resourceNotFound } from '../../k8s/status';
import { alreadyExists, badRequestMessage, patchRejected } from '../../k8s/write-status';
import type { ResourceRequest } from '../resource-request';
import { NAMESPACE_MISMATCH } from './create';
import { validateApplyBody, validatePatchedFields } from './field-validation';
import { checkPatchedFieldTypes } from './field-types';
import { applyBodyJson } from './apply-patcher';
import { APPLY_PATCH, patcherFor, type ApplyContext, type PatchReport } from './patchers';
import { prepareCreate, prepareUpdate, type Actor, type WriteTarget } from './prepare';
import { checkObject, readBody } from './request-body';
import { commitObject, currentObject, currentReadOnly, currentRevision, keyOf, respondObject, unstored } from './stored-write';
import { finishUpdate } from './update';
import { timestamp, type WriteDeps } from './write-deps';
import { actor, admitNamespace, servedKinds, writeTarget } from './write-request';

type Obj = Record<string, any>;

export async function handlePatch(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  const target = writeTarget(ctx);
  if (ctx.info.subresource && !(ctx.info.subresource === 'status' && target.rules.hasStatus)) throw resourceNotFound();
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
  // Read only: the patcher changes the copy fresh() gives it.
  const old = current ? currentReadOnly(ctx, current) : fresh();
  const who = actor(ctx, deps, options.fieldManager);
  const apply = isApply ? applyContext(target, who, options.force, ctx.info.subresource) : undefined;
  const json = isApply ? applyBodyJson(body) : undefined;
  if (isApply) validateApplyBody(ctx, body, options.fieldValidation, json);
  const report: PatchReport = {};
  const patched = patcher({ current: fresh(), patch: body, json, report, apply, resource: ctx.resource });
  if (!patched || typeof patched !== 'object' || Array.isArray(patched)) throw patchRejected();
  checkObject(patched, ctx.resource, servedKinds(ctx, deps));
  checkPatchedFieldTypes(ctx, patched, contentType, () => report.strictValue ?? patchedJson(patched));
  if (!isApply) validatePatchedFields(ctx, patched, options.fieldValidation, () => report.strictValue ?? patchedJson(patched));
  const patchedName = patched.metadata.name ?? '';
  if (patchedName !== name) throw badRequestMessage(`the name of the object (${patchedName}) does not match the name on the URL (${name})`);
  if (ctx.resource.namespaced && (patched.metadata.namespace ?? ctx.info.namespace) !== ctx.info.namespace) throw badRequestMessage(NAMESPACE_MISMATCH);
  if (!current) return createByApply(ctx, deps, key, patched, target, who, options.dryRun);
  const result = prepareUpdate(old, patched, target, who, { verb: 'patch', subresource: ctx.info.subresource, appliedFields: isApply });
  finishUpdate(ctx, deps, key, current, old, result, options.dryRun);
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

function createByApply(ctx: ResourceRequest, deps: WriteDeps, key: string, obj: Obj, target: WriteTarget, who: Actor, dryRun: boolean): void {
  if (ctx.info.subresource) throw notFound(ctx.resource.info.resource, ctx.info.name, ctx.resource.info.group);
  admitNamespace(ctx, deps, ctx.info.name);
  const prepared = prepareCreate(obj, target, who, true);
  if (currentRevision(ctx, deps, key)) throw alreadyExists(ctx.resource.info.resource, ctx.resource.info.group, prepared.metadata.name);
  respondObject(ctx, 201, dryRun ? unstored(ctx, prepared) : commitObject(ctx, deps, key, prepared));
}
