import type { ServedResource } from '../served-resources';

/**
 * A parent resource seen as the kind a subresource's body must be (a Pod's Binding, Eviction):
 * what decodeObject checks kind and apiVersion against, and decodes protobuf with.
 */
export function subresourceKind(parent: ServedResource, group: string, version: string, kind: string): ServedResource {
  const apiVersion = group ? `${group}/${version}` : version;
  return {
    ...parent,
    info: { ...parent.info, id: `${group}/${version}/${kind}`, group, version, kind, unstructured: false },
    codec: { type: { kind, apiVersion } } as ServedResource['codec'],
  };
}
