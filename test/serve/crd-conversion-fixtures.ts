/**
 * The conversion both CRD conversion webhook tests' webhooks make, and their versions' schemas:
 * v1 (the storage version) keeps `spec.size`; v2 has `spec.dimensions.size`.
 */
type Obj = Record<string, any>;

export function convertSize(obj: Obj, desired: string): Obj {
  const { spec = {}, ...rest } = obj;
  if (desired === 'example.com/v2') {
    const { size, ...others } = spec;
    return { ...rest, apiVersion: desired, spec: { ...others, dimensions: { size } } };
  }
  const { dimensions, ...others } = spec;
  return { ...rest, apiVersion: desired, spec: { ...others, size: dimensions?.size } };
}

/** A version's schema with these properties under `spec`. */
export const specSchema = (spec: Obj) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } });

/**
 * A namespaced CRD of group example.com with versions v1 (storage: `spec.size`) and v2
 * (`spec.dimensions.size`), converted by the webhook at `clientConfig`; `extra` adds schema
 * properties and fields to both versions.
 */
export function sizeCrd(kind: string, clientConfig: Obj, extra: { properties?: Obj; version?: Obj } = {}): Obj {
  const plural = `${kind.toLowerCase()}s`;
  const version = (name: string, spec: Obj) => ({ name, served: true, storage: name === 'v1', schema: specSchema({ ...spec, ...(extra.properties ?? {}) }), ...(extra.version ?? {}) });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [version('v1', { size: { type: 'integer' } }), version('v2', { dimensions: { type: 'object', properties: { size: { type: 'integer' } } } })],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig } },
    },
  };
}
