/** src/serve/writes: create, update, patch, delete and deletecollection against the store. */
import type { ResourceRequest } from '../resource-request';
import { handleCreate } from './create';
import { handleDelete } from './delete';
import { handleDeleteCollection } from './delete-collection';
import { handlePatch } from './patch';
import { handleUpdate } from './update';
import type { WriteDeps } from './write-deps';

export type { WriteDeps } from './write-deps';
export { defaultPatchers, type Patcher, type Patchers, type PatchInput } from './patchers';
export { builtinPatchers } from './builtin-patchers';
export { WrittenObject } from './written-object';
export { handleCustomScale } from './custom-resource-scale';

export const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

export function handleWrite(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  switch (ctx.info.verb) {
    case 'create':
      return handleCreate(ctx, deps);
    case 'update':
      return handleUpdate(ctx, deps);
    case 'patch':
      return handlePatch(ctx, deps);
    case 'delete':
      return handleDelete(ctx, deps);
    default:
      return handleDeleteCollection(ctx, deps);
  }
}
