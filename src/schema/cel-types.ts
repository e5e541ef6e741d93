/**
 * The CEL types of a CRD version's schema (model.SchemaDeclType in v1.26): an object with
 * `properties` a type whose fields are its properties that have a CEL type and a CEL name
 * (./cel-value escapeCelName), at a resource root and an embedded resource also `apiVersion`,
 * `kind` and `metadata` (`name`, `generateName`); `additionalProperties` a map; arrays lists;
 * strings of format byte/duration/date/date-time bytes/durations/timestamps; int-or-string dyn; a
 * node without a type (only `x-kubernetes-preserve-unknown-fields`) none, so it cannot be reached.
 * `typedEnvironments` gives, for each schema node, an environment whose `self` and `oldSelf` have
 * the node's type: rules are checked against it so that a field the schema does not have is the
 * apiserver's compile errors (./cel-type-check). Pure.
 */
import type { Environment } from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { celLibrary } from './cel-module';
import { withKubernetesLibrary } from './cel-library';
import { escapeCelName } from './cel-value';

type Obj = Record<string, any>;

/** The typed environments only check rules; their values are compared where rules are evaluated (./cel-environment). */
const sameObject = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The names of the object types (`k8s_type3`): objects, not maps — no index, no size, no iteration. */
export const OBJECT_TYPE_PREFIX = 'k8s_type';

/** The environment of a schema node's rules, or undefined where the node has no CEL type. */
export type TypedEnvironments = (node: Obj) => Environment | undefined;

/** The typed environments of one version's schema (its root is a resource). */
export function typedEnvironments(openAPIV3Schema: Obj): TypedEnvironments {
  const types = new Map<Obj, string>();
  const objects: { name: string; fields: Record<string, string> }[] = [];
  let next = 0;

  const metadataType = () => {
    const name = `${OBJECT_TYPE_PREFIX}${next++}`;
    objects.push({ name, fields: { name: 'string', generateName: 'string' } });
    return name;
  };

  const typeOf = (s: unknown, resource: boolean): string | undefined => {
    if (typeof s !== 'object' || s === null) return undefined;
    const schema = s as Obj;
    const type = declared(schema, resource || schema['x-kubernetes-embedded-resource'] === true);
    if (type !== undefined) types.set(schema, type);
    return type;
  };

  const declared = (schema: Obj, resource: boolean): string | undefined => {
    if (schema['x-kubernetes-int-or-string'] === true) return 'dyn';
    switch (schema.type) {
      case 'object': {
        if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
          const values = typeOf(schema.additionalProperties, false);
          return values === undefined ? undefined : `map<string, ${values}>`;
        }
        const fields: Record<string, string> = {};
        for (const [prop, sub] of Object.entries((schema.properties ?? {}) as Obj)) {
          const t = typeOf(sub, false);
          const field = escapeCelName(prop);
          if (t !== undefined && field !== undefined) fields[field] = t;
        }
        if (resource) Object.assign(fields, { apiVersion: 'string', kind: 'string', metadata: metadataType() });
        const name = `${OBJECT_TYPE_PREFIX}${next++}`;
        objects.push({ name, fields });
        return name;
      }
      case 'array': {
        const items = typeof schema.items === 'object' && !Array.isArray(schema.items) ? typeOf(schema.items, false) : undefined;
        return items === undefined ? undefined : `list<${items}>`;
      }
      case 'string':
        return ({ byte: 'bytes', duration: 'google.protobuf.Duration', date: 'google.protobuf.Timestamp', 'date-time': 'google.protobuf.Timestamp' } as Record<string, string>)[schema.format] ?? 'string';
      case 'boolean':
        return 'bool';
      case 'number':
        return 'double';
      case 'integer':
        return 'int';
      default:
        return undefined;
    }
  };

  typeOf(openAPIV3Schema, true);
  // Literals' element types are checked as cel-go checks them, where dyn joins any type (./cel-type-check).
  const base = withKubernetesLibrary(new (celLibrary().Environment)({ homogeneousAggregateLiterals: false }));
  // A type is registered after the types of its fields (objects lists them children first).
  for (const o of objects) {
    base.registerType(o.name, { fields: o.fields });
    // cel-go compares any two values of one type, and objects with null (the library registers != with ==).
    base.registerOperator(`${o.name} == ${o.name}`, sameObject);
    base.registerOperator(`${o.name} == null`, () => false);
  }
  const envs = new Map<Obj, Environment>();
  return (node) => {
    const type = types.get(node);
    if (type === undefined) return undefined;
    let env = envs.get(node);
    if (!env) envs.set(node, (env = base.clone().registerVariable('self', type).registerVariable('oldSelf', type)));
    return env;
  };
}
