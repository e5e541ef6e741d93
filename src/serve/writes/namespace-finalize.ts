/**
 * `PUT /api/v1/namespaces/NAME/finalize` (the namespace controller's last step): only
 * `spec.finalizers` is taken from the body; a Terminating namespace left with no finalizers
 * goes at once (the answer shows it without them, at the old resourceVersion; w4-namespace-finalize-subresource).
 */
import { parseWriteOptions } from '../../k8s/write-options';
import { notFound, resourceNotFound } from '../../k8s/status';
import { badRequestMessage } from '../../k8s/write-status';
import type { ResourceRequest } from '../resource-request';
import { checkBodyType, decodeObject, readBody } from './request-body';
import { currentObject, currentRevision, keyOf } from './stored-write';
import { finishUpdate } from './update';
import type { WriteDeps } from './write-deps';
import { servedKinds } from './write-request';

export async function handleFinalize(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  if (!(ctx.resource.info.group === '' && ctx.resource.info.resource === 'namespaces')) throw resourceNotFound();
  const contentType = checkBodyType(ctx.req.headers['content-type'], ctx.resource);
  const body = await readBody(ctx.req);
  const options = parseWriteOptions('update', ctx.info.query);
  const obj = decodeObject(body, contentType, ctx.resource, servedKinds(ctx, deps));
  const name = ctx.info.name;
  if ((obj.metadata.name ?? name) !== name) throw badRequestMessage(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
  const key = keyOf(ctx, name);
  const current = currentRevision(ctx, deps, key);
  if (!current) throw notFound('namespaces', name);
  const old = currentObject(ctx, current);
  const result = structuredClone(old);
  const finalizers = Array.isArray(obj.spec?.finalizers) ? [...new Set(obj.spec.finalizers as string[])] : [];
  result.spec = { ...(result.spec ?? {}) };
  if (finalizers.length > 0) result.spec.finalizers = finalizers;
  else delete result.spec.finalizers;
  finishUpdate(ctx, deps, key, current, old, result, options.dryRun);
}

