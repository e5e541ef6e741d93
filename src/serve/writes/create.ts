/** POST: create (201), dry run included (reference/apiserver-facts-writes.md "Create"). */
import { parseWriteOptions } from '../../k8s/write-options';
import { alreadyExists, badRequestMessage, methodNotAllowedHere } from '../../k8s/write-status';
import type { ResourceRequest } from '../resource-request';
import { prepareCreate } from './prepare';
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
  await createObject(ctx, deps, obj, options.dryRun, options.fieldManager);
}

/** The create path after decoding (also PUT of a missing Lease or Endpoints). */
export async function createObject(ctx: ResourceRequest, deps: WriteDeps, obj: Record<string, any>, dryRun: boolean, fieldManager: string | undefined): Promise<void> {
  const target = writeTarget(ctx);
  const prepared = prepareCreate(obj, target, actor(ctx, deps, fieldManager));
  if (ctx.resource.info.group === '' && ctx.resource.info.resource === 'pods') admitServiceAccount(prepared, target.namespace, deps);
  const key = keyOf(ctx, prepared.metadata.name);
  if (currentRevision(ctx, deps, key)) throw alreadyExists(ctx.resource.info.resource, ctx.resource.info.group, prepared.metadata.name);
  respondObject(ctx, 201, dryRun ? unstored(ctx, prepared) : commitObject(ctx, deps, key, prepared));
}
