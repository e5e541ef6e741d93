/**
 * OpenAPI v3 documents of the custom resources' group-versions, as the apiserver serves one
 * once a CRD is Established (`/openapi/v3/apis/G/V`): the resources' paths, and in
 * `components.schemas` each kind's schema from its CRD (`com.example.v1.Widget`, with
 * `x-kubernetes-group-version-kind`, apiVersion, kind and metadata as ObjectMeta), its list
 * kind, and the apimachinery types they refer to. `kubectl explain` reads these.
 */
import { crdDefinitionName } from '../../schema';
import { CUSTOM_RESOURCE_VERBS, type CustomDiscoveryEntry } from './custom-discovery';
import { groupVersionPath, openApiV3Document } from './openapi-docs';

type Obj = Record<string, any>;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const API_VERSION = {
  description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};
const KIND = {
  description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};

/** One document per custom group-version, keyed by its path below /openapi/v3/ (`apis/example.com/v1`). */
export function customOpenApiV3Documents(entries: readonly CustomDiscoveryEntry[], gitVersion: string, metaSchemas: () => Obj): Map<string, Obj> {
  const byPath = new Map<string, CustomDiscoveryEntry[]>();
  for (const e of entries) {
    const path = groupVersionPath(e.group, e.version);
    (byPath.get(path) ?? byPath.set(path, []).get(path)!).push({ ...e, verbs: e.verbs ?? CUSTOM_RESOURCE_VERBS });
  }
  const docs = new Map<string, Obj>();
  for (const [path, list] of byPath) {
    const doc = openApiV3Document(list[0]!.group, list[0]!.version, list, gitVersion);
    const schemas: Obj = { ...metaSchemas() };
    for (const e of list) Object.assign(schemas, kindSchemas(e));
    doc.components = { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))) };
    docs.set(path, doc);
  }
  return docs;
}

function kindSchemas(e: CustomDiscoveryEntry): Obj {
  const name = crdDefinitionName(e.group, e.version, e.kind);
  const listKind = e.listKind ?? `${e.kind}List`;
  const given: Obj = e.openAPIV3Schema && typeof e.openAPIV3Schema === 'object' ? structuredClone(e.openAPIV3Schema) : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const kind: Obj = {
    ...given,
    type: 'object',
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: { description: 'Standard object\'s metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata', allOf: [ref(`${META}ObjectMeta`)] },
      ...(given.properties ?? {}),
    },
    'x-kubernetes-group-version-kind': [{ group: e.group, kind: e.kind, version: e.version }],
  };
  const list: Obj = {
    description: `${listKind} is a list of ${e.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: API_VERSION,
      items: { description: `List of ${e.resource}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`, type: 'array', items: ref(name) },
      kind: KIND,
      metadata: { description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds', allOf: [ref(`${META}ListMeta`)] },
    },
    'x-kubernetes-group-version-kind': [{ group: e.group, kind: listKind, version: e.version }],
  };
  return { [name]: kind, [crdDefinitionName(e.group, e.version, listKind)]: list };
}
