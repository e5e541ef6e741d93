/** POST: create (201), dry run included (reference/apiserver-facts-writes.md "Create"). */
import { writeOptionsJson } from '../../k8s/admission-review';
import { admitPod } from '../../k8s/pod-defaults';
import { isPlainObject } from '../../wire/json-object';
import { parseWriteOptions, type WriteOptions } from '../../k8s/write-options';
import { alreadyExists, badRequestMessage, methodNotAllowedHere } from '../../k8s/write-status';
import type { ResourceRequest } from '../resource-request';
import { admissionOf, admissionRequest } from './admission-hooks';
import { convertForStore, convertsByWebhook } from './custom-conversion';
import { admissionView, createManagedFields, prepareCreate, withManagedFields } from './prepare';
import { admitServiceAccount } from './service-account-admission';
import { checkBodyType, decodeObject, readBody } from './request-body';
import { commitObject, currentRevision, keyOf, respondObject, unstored } from './stored-write';
import { validateDecodedFields } from './field-validation';
import type { WriteDeps } from './write-deps';
import { actor, admitNamespace, servedKinds, writeTarget } from './write-request';

export const NAMESPACE_MISMATCH = 'the namespace of the provided object does not match the namespace sent on the request';

export async function handleCreate(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  if (ctx.info.name || ctx.info.subresource) throw methodNotAllowedHere();
  const contentType = checkBodyType(ctx.req.headers['content-type'], ctx.resource);
  const body = await readBody(ctx.req);
  const options = parseWriteOptions('create', ctx.info.query);
  const obj = decodeObject(body, contentType, ctx.resource, servedKinds(ctx, deps));
  validateDecodedFields(ctx, obj, options.fieldValidation, body, contentType);
  if (ctx.resource.namespaced && obj.metadata.namespace && obj.metadata.namespace !== ctx.info.namespace) throw badRequestMessage(NAMESPACE_MISMATCH);
  admitNamespace(ctx, deps, obj.metadata.name ?? '');
  await createObject(ctx, deps, obj, options);
}

/**
 * The create path after decoding (also PUT of a missing Lease or Endpoints): mutating admission
 * webhooks, defaults and validation, validating webhooks, then the store.
 */
export async function createObject(ctx: ResourceRequest, deps: WriteDeps, obj: Record<string, any>, options: WriteOptions): Promise<void> {
  const target = writeTarget(ctx);
  const admission = admissionOf(ctx, deps);
  const request = admission && admissionRequest(ctx, 'CREATE', obj.metadata?.name ?? '', options.dryRun, writeOptionsJson('CreateOptions', options));
  const isPod = ctx.resource.info.group === '' && ctx.resource.info.resource === 'pods';
  const who = actor(ctx, deps, options.fieldManager);
  // The apiserver records the creator's managedFields before admission: webhooks see them, and what admission adds is no manager's.
  const recorded = admission ? createManagedFields(obj, target, who) : undefined;
  if (admission && request) {
    const view = withManagedFields(admissionView(obj, target), recorded);
    if (isPod) admitPodInTree(view, target.namespace, deps);
    obj = (await admission.mutate(request, view, undefined))!;
  }
  const prepared = prepareCreate(obj, target, who, false, recorded);
  if (isPod && !admission) admitServiceAccount(prepared, target.namespace, deps);
  // Validating webhooks see the generated name.
  if (admission && request) await admission.validate({ ...request, name: prepared.metadata.name }, prepared, undefined);
  if (convertsByWebhook(ctx)) await convertForStore(ctx, deps, prepared);
  const key = keyOf(ctx, prepared.metadata.name);
  if (currentRevision(ctx, deps, key)) throw alreadyExists(ctx.resource.info.resource, ctx.resource.info.group, prepared.metadata.name);
  respondObject(ctx, 201, options.dryRun ? unstored(ctx, prepared) : commitObject(ctx, deps, key, prepared));
}

/**
 * The in-tree mutating plugins a new Pod meets before MutatingAdmissionWebhook: ServiceAccount,
 * Priority, DefaultTolerationSeconds (changes `pod`; throws the ServiceAccount plugin's 403).
 */
export function admitPodInTree(pod: Record<string, any>, namespace: string, deps: WriteDeps): void {
  admitServiceAccount(pod, namespace, deps);
  if (isPlainObject(pod.spec)) admitPod(pod.spec);
}
