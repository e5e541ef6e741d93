/**
 * The managedFields of an Update operation (create, update, non-apply patch): over the schema
 * for the kinds it knows, custom resources included (src/schema/field-manager.ts), schema-less
 * (src/k8s/managed-fields.ts) for the others; then the apiserver's cap on Update managers
 * (src/schema/managers-cap.ts).
 */
import { trackedPart, updateManagedFields, ZERO_OBJECT, type ManagedFieldsEntry, type ManagedScope } from '../../k8s/managed-fields';
import { managedFieldsAfterUpdate, zeroObject } from '../../schema';
import { capUpdateManagers } from '../../schema/managers-cap';
import { resourceSchemaNode } from '../resource-schema';
import type { ServedResource } from '../served-resources';

type Obj = Record<string, any>;

export interface UpdateOperation {
  entries: readonly ManagedFieldsEntry[];
  manager: string;
  time: string;
  subresource?: string;
  scope: ManagedScope;
  /** The object before (undefined for a create) and after the write. */
  before: Obj | undefined;
  after: Obj;
}

/** `resource`: the written resource, whose schema types the fields. */
export function managedFieldsOfUpdate(resource: ServedResource, op: UpdateOperation): ManagedFieldsEntry[] {
  const { kind, apiVersion } = resource.codec.type;
  const node = resourceSchemaNode(resource);
  if (node) {
    // A custom resource's zero object has no spec or status: they are added, as maps, by the creator.
    const zero = resource.custom ? { metadata: {} } : zeroObject(kind);
    return capUpdateManagers(managedFieldsAfterUpdate({ ...op, node, apiVersion, before: op.before ?? zero }));
  }
  return capUpdateManagers(updateManagedFields({
    entries: op.entries,
    manager: op.manager,
    apiVersion,
    time: op.time,
    subresource: op.subresource,
    // A custom resource's zero object has no spec or status: they are added, as maps, by the creator.
    before: op.before ? trackedPart(op.before, op.scope) : resource.custom ? { metadata: {} } : ZERO_OBJECT,
    after: trackedPart(op.after, op.scope),
    whole: trackedPart(op.after, 'all'),
  }));
}
