/**
 * CRDs whose validation rules exceed v1.26's estimated cost limits, written to a real serve: the
 * 422 a v1.26 apiserver answers (a Forbidden cause per rule over 10,000,000 and for a schema whose
 * rules add up to more than 100,000,000), nothing installed; the same rules with maxItems and
 * maxLength are accepted, on create and on update.
 */
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';

type Obj = Record<string, any>;

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
const AT = 'spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule';

const crd = (tags: Obj) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gauges.example.com' },
  spec: {
    group: 'example.com', names: { plural: 'gauges', kind: 'Gauge' }, scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { tags } } } } } }],
  },
});
const distinct = [{ rule: 'self.all(x, self.all(y, x != y))' }];
const unbounded = { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': distinct };
const bounded = { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': distinct };

describe('a CRD whose rules exceed the estimated cost limits', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 11 });
  });
  afterAll(async () => {
    await api.close();
  });

  const send = async (method: string, path: string, body: unknown) => {
    const r = await request(api.url, path, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: JSON.parse(r.text) as Obj };
  };

  it('is refused when created with the Forbidden causes v1.26 gives; nothing is installed', async () => {
    const refused = await send('POST', CRDS, crd(unbounded));
    expect(refused.status).toBe(422);
    const causes = [
      { reason: 'FieldValueForbidden', message: `Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${HINT}`, field: AT },
      { reason: 'FieldValueForbidden', message: 'Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema', field: AT },
      { reason: 'FieldValueForbidden', message: `Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${HINT}`, field: 'spec.validation.openAPIV3Schema' },
    ];
    expect(refused.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, details: { name: 'gauges.example.com', group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', causes } });
    expect(refused.body.message).toBe(`CustomResourceDefinition.apiextensions.k8s.io "gauges.example.com" is invalid: [${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}]`);
    expect((await request(api.url, `${CRDS}/gauges.example.com`)).status).toBe(404);
  });

  it('is accepted with maxItems and maxLength; an update that drops them is refused', async () => {
    const created = await send('POST', CRDS, crd(bounded));
    expect(created.status).toBe(201);
    // The CRD's status is set after it is created: update the stored object.
    const current = (await send('GET', `${CRDS}/gauges.example.com`, undefined)).body;
    current.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags = unbounded;
    const updated = await send('PUT', `${CRDS}/gauges.example.com`, current);
    expect(updated.status).toBe(422);
    expect(updated.body.details.causes[0]).toEqual({ reason: 'FieldValueForbidden', message: `Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${HINT}`, field: AT });
    const stored = await send('GET', `${CRDS}/gauges.example.com`, undefined);
    expect(stored.body.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags.maxItems).toBe(10);
  });
});
