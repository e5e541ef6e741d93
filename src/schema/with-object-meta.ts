/**
 * A custom resource's root node with `metadata` typed as ObjectMeta, as the apiserver's field
 * manager types custom resources (the CRD schema leaves metadata open): labels and annotations
 * granular maps, ownerReferences a list keyed by uid, finalizers a set. Pure.
 */
import type { SchemaNode } from './schema-node';

export function withObjectMeta(root: SchemaNode, objectMeta: SchemaNode | undefined): SchemaNode {
  if (!objectMeta || root.type !== 'object') return root;
  const properties = new Map(root.properties ?? []);
  properties.set('metadata', objectMeta);
  return { ...root, properties };
}
