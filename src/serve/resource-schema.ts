/**
 * The schema node of a served resource's kind for the field manager (server-side apply and the
 * managedFields of every write): the built-in schema's type, or a custom resource's structural
 * schema with ObjectMeta for its metadata; undefined for kinds neither knows.
 */
import { withObjectMeta, type SchemaNode } from '../schema';
import { builtinSchema } from './builtin-schema';
import type { CustomResourceType } from './crds/custom-resource-type';
import type { ServedResource } from './served-resources';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const customNodes = new WeakMap<CustomResourceType, SchemaNode>();

export function resourceSchemaNode(resource: ServedResource): SchemaNode | undefined {
  const custom = resource.custom;
  if (custom) {
    let node = customNodes.get(custom);
    if (!node) customNodes.set(custom, (node = withObjectMeta(custom.schema, builtinSchema().definition(OBJECT_META))));
    return node;
  }
  if (resource.info.unstructured) return undefined;
  const { apiVersion, kind } = resource.codec.type;
  return builtinSchema().typeOf(apiVersion, kind);
}
