/**
 * The Pod subresources schedulers, drain and `kubectl debug` write — `binding`, `eviction`,
 * `ephemeralcontainers` — and the namespace's `bindings` resource: which handler answers a
 * request for them (undefined for any other resource or subresource).
 */
import { methodNotAllowedHere } from '../../k8s/write-status';
import { handleGet } from '../resource-handlers';
import type { ResourceRequest } from '../resource-request';
import type { ServedResource } from '../served-resources';
import { handlePatch } from './patch';
import { handleBinding } from './pod-binding';
import { handleEviction } from './pod-eviction';
import { handleUpdate } from './update';
import type { WriteDeps } from './write-deps';

export type PodSubresourceHandler = (ctx: ResourceRequest, deps: WriteDeps) => Promise<void>;

export function podSubresourceHandler(resource: ServedResource, subresource: string): PodSubresourceHandler | undefined {
  if (resource.info.group !== '' || resource.info.unstructured) return undefined;
  if (resource.info.resource === 'bindings' && subresource === '') return handleBinding;
  if (resource.info.resource !== 'pods') return undefined;
  switch (subresource) {
    case 'binding':
      return handleBinding;
    case 'eviction':
      return handleEviction;
    case 'ephemeralcontainers':
      return handleEphemeralContainers;
    default:
      return undefined;
  }
}

/** GET answers the Pod; PUT and PATCH change only its ephemeral containers (prepareUpdate). */
async function handleEphemeralContainers(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  switch (ctx.info.verb) {
    case 'get':
      return handleGet(ctx);
    case 'update':
      return handleUpdate(ctx, deps);
    case 'patch':
      return handlePatch(ctx, deps);
    default:
      throw methodNotAllowedHere();
  }
}
