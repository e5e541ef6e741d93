/** PATCH: merge and JSON patches (and whatever `patchers` holds) applied to the live object, then the update path. */
import { parseWriteOptions } from '../../k8s/write-options';
import { notFound, resourceNotFound } from '../../k8s/status';
import { badRequestMessage, patchRejected } from '../../k8s/write-status';
import type { ResourceRequest } from '../resource-request';
import { NAMESPACE_MISMATCH } from './create';
import { validatePatchedFields } from './field-validation';
import { APPLY_PATCH, patcherFor, type PatchReport } from './patchers';
import { prepareUpdate } from './prepare';
import { checkObject, readBody } from './request-body';
import { currentObject, currentRevision, keyOf } from './stored-write';
import { finishUpdate } from './update';
import type { WriteDeps } from './write-deps';
import { actor, servedKinds, writeTarget } from './write-request';

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
  if (!current) throw notFound(ctx.resource.info.resource, name, ctx.resource.info.group);
  const old = currentObject(ctx, current);
  const report: PatchReport = {};
  const patched = patcher({ current: structuredClone(old), patch: body, report });
  if (!patched || typeof patched !== 'object' || Array.isArray(patched)) throw patchRejected();
  checkObject(patched, ctx.resource, servedKinds(ctx, deps));
  if (!isApply) validatePatchedFields(ctx, patched, options.fieldValidation, () => report.strictValue ?? patchedJson(patched));
  const patchedName = patched.metadata.name ?? '';
  if (patchedName !== name) throw badRequestMessage(`the name of the object (${patchedName}) does not match the name on the URL (${name})`);
  if (ctx.resource.namespaced && (patched.metadata.namespace ?? '') !== ctx.info.namespace) throw badRequestMessage(NAMESPACE_MISMATCH);
  const result = prepareUpdate(old, patched, target, actor(ctx, deps, options.fieldManager), { verb: 'patch', subresource: ctx.info.subresource });
  finishUpdate(ctx, deps, key, current, old, result, options.dryRun);
}

/** The patched object as the apiserver prints it for merge and JSON patches: top-level keys sorted. */
function patchedJson(obj: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]])));
}
