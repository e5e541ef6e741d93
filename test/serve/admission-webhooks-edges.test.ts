/**
 * Admission webhooks at the edges of the write paths: a deletecollection whose object changes
 * while its DELETE is admitted, a custom resource's /scale racing another write, a Pod created by
 * server-side apply, and a custom resource's recorded managedFields while webhooks exist.
 */
import { serve, type ServeServer } from '../../src/serve';
import { allow, deny, startWebhookServer, type WebhookServer } from '../support/webhook-server';
import { specSchema } from './crd-conversion-fixtures';
import { webhookCluster } from './webhook-cluster';

type Obj = Record<string, any>;

const CM = '/api/v1/namespaces/default/configmaps';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const DIALS = '/apis/example.com/v1/namespaces/default/dials';

describe('serve: admission webhooks at the edges of the write paths', () => {
  let api: ServeServer;
  let hooks: WebhookServer;
  const { send, webhook, install, reset } = webhookCluster(() => api, () => hooks);
  beforeAll(async () => {
    [api, hooks] = await Promise.all([serve({ seed: 31 }), startWebhookServer()]);
    const crd = {
      metadata: { name: 'dials.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'dials', singular: 'dial', kind: 'Dial' },
        versions: [{ name: 'v1', served: true, storage: true, schema: specSchema({ replicas: { type: 'integer' }, size: { type: 'integer', default: 3 }, color: { type: 'string' } }), subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } }],
      },
    };
    expect((await send('POST', CRDS, crd)).status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
    await hooks.close();
  });
  afterEach(() => reset());

  it('a deletecollection deletes the state its webhooks admitted: an object replaced meanwhile is admitted again', async () => {
    expect((await send('POST', CM, { metadata: { name: 'swap', labels: { sweep: 'yes' } } })).status).toBe(201);
    let replaced = false;
    hooks.handle('/sweep', async (review) => {
      if (!replaced) {
        replaced = true;
        // Another client replaces the object while its DELETE is being admitted.
        expect((await send('DELETE', `${CM}/swap`)).status).toBe(200);
        expect((await send('POST', CM, { metadata: { name: 'swap', labels: { sweep: 'yes', keep: 'yes' } } })).status).toBe(201);
      }
      return review.request.oldObject?.metadata?.labels?.keep ? deny({ code: 403, reason: 'Forbidden', message: 'kept' }) : allow();
    });
    await install('Validating', 'sweep', [webhook('sweep.example.com', '/sweep', { rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], objectSelector: { matchLabels: { sweep: 'yes' } } })]);
    const swept = await send('DELETE', `${CM}?labelSelector=sweep%3Dyes`);
    expect(swept.status).toBe(403);
    expect((await send('GET', `${CM}/swap`)).json.metadata.labels).toEqual({ sweep: 'yes', keep: 'yes' });
  });

  it('a custom resource’s /scale without a resourceVersion starts again when the object changes during a webhook call', async () => {
    expect((await send('POST', DIALS, { apiVersion: 'example.com/v1', kind: 'Dial', metadata: { name: 'd' }, spec: { replicas: 1 } })).status).toBe(201);
    let raced = false;
    hooks.handle('/scale', async () => {
      if (!raced) {
        raced = true;
        expect((await send('PATCH', `${DIALS}/d`, { spec: { color: 'red' } }, 'application/merge-patch+json')).status).toBe(200);
      }
      return allow();
    });
    await install('Validating', 'scale', [webhook('scale.example.com', '/scale', { rules: [{ operations: ['UPDATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['dials/scale'] }] })]);
    const scaled = await send('PATCH', `${DIALS}/d/scale`, { spec: { replicas: 4 } }, 'application/merge-patch+json');
    expect(scaled.status).toBe(200);
    expect((await send('GET', `${DIALS}/d`)).json.spec).toEqual({ replicas: 4, size: 3, color: 'red' });
    expect(hooks.reviews('/scale')).toHaveLength(2);
  });

  it('a Pod created by server-side apply meets the ServiceAccount plugin too, with or without webhooks', async () => {
    await send('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    const apply = (name: string) => send('PATCH', `/api/v1/namespaces/default/pods/${name}?fieldManager=applier`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, 'application/apply-patch+yaml');
    const plain = await apply('applied');
    expect(plain.status).toBe(201);
    expect(plain.json.spec.volumes.map((v: Obj) => v.name)).toEqual([expect.stringMatching(/^kube-api-access-/)]);
    hooks.handle('/pods', () => allow());
    await install('Mutating', 'pods', [webhook('pods.example.com', '/pods', { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })]);
    const hooked = await apply('applied-hooked');
    expect(hooked.status).toBe(201);
    expect(hooks.reviews('/pods')[0]!.request.object.spec.serviceAccountName).toBe('default');
    expect(hooked.json.spec.volumes).toHaveLength(1);
  });

  it('a custom resource’s create records the fields its schema defaults, whether webhooks exist or not', async () => {
    const fieldsOf = async (name: string) => {
      const created = await send('POST', `${DIALS}?fieldManager=maker`, { apiVersion: 'example.com/v1', kind: 'Dial', metadata: { name }, spec: { color: 'blue' } });
      expect(created.status).toBe(201);
      return created.json.metadata.managedFields[0].fieldsV1;
    };
    const without = await fieldsOf('plain');
    await install('Validating', 'other', [webhook('other.example.com', '/other')]);
    expect(await fieldsOf('hooked')).toEqual(without);
    expect(without['f:spec']).toEqual({ '.': {}, 'f:color': {}, 'f:size': {} });
  });

  it('a caBundle that is not PEM fails the call as client-go fails to build the client', async () => {
    const notPem = Buffer.from('not a certificate').toString('base64');
    await install('Validating', 'bad-ca', [{ ...webhook('bad-ca.example.com', '/ok'), clientConfig: { url: hooks.url('/ok'), caBundle: notPem } }]);
    const r = await send('POST', CM, { metadata: { name: 'bad-ca' } });
    expect(r.status).toBe(500);
    expect(r.json.message).toBe('Internal error occurred: failed calling webhook "bad-ca.example.com": could not get REST client: unable to load root certificates: unable to parse bytes as PEM block');
    expect(hooks.reviews('/ok')).toHaveLength(0);
  });
});
