/** src/serve/writes: create, update, patch, delete and deletecollection against the store. */
import { loadCelLibrary } from '../../schema';
import type { ResourceRequest } from '../resource-request';
import { handleCreate } from './create';
import { handleDelete } from './delete';
import { handleDeleteCollection } from './delete-collection';
import { handleFinalize } from './namespace-finalize';
import { handlePatch } from './patch';
import { handleUpdate } from './update';
import type { WriteDeps } from './write-deps';

export type { WriteDeps } from './write-deps';
export { defaultPatchers, type Patcher, type Patchers, type PatchInput } from './patchers';
export { builtinPatchers } from './builtin-patchers';
export { objectOf, WrittenObject } from './written-object';
export { handleScale, hasScale } from './scale';
export { hasStatusSubresource } from './resource-rules';
export { handleCustomScale } from './custom-resource-scale';
export { podSubresourceHandler } from './pod-subresources';

export const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

export function handleWrite(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  // A CRD's validation rules are compiled when it is written: the CEL library is loaded first.
  if (ctx.info.resource === 'customresourcedefinitions' && ctx.info.apiGroup === 'apiextensions.k8s.io') return loadCelLibrary().then(() => writeVerb(ctx, deps));
  return writeVerb(ctx, deps);
}

function writeVerb(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  switch (ctx.info.verb) {
    case 'create':
      return handleCreate(ctx, deps);
    case 'update':
      return ctx.info.subresource === 'finalize' ? handleFinalize(ctx, deps) : handleUpdate(ctx, deps);
    case 'patch':
      return handlePatch(ctx, deps);
    case 'delete':
      return handleDelete(ctx, deps);
    default:
      return handleDeleteCollection(ctx, deps);
  }
}
