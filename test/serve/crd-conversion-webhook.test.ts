/**
 * A CRD with `conversion.strategy: Webhook` through a real serve and a real HTTPS webhook: writes
 * in a non-storage version are converted for the store, reads, lists and watches in every served
 * version show what the webhook made, and the webhook's failures are the apiserver's 500s.
 */
import { serve, type ServeServer } from '../../src/serve';
import { collectWatch, get } from '../support/http-client';
import { startWebhookServer, type WebhookServer } from '../support/webhook-server';
import { sendJson } from './invalid-status';
import { convertSize, sizeCrd } from './crd-conversion-fixtures';

type Obj = Record<string, any>;

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const V1 = '/apis/example.com/v1/namespaces/default/widgets';
const V2 = '/apis/example.com/v2/namespaces/default/widgets';


describe('serve: CRD conversion webhooks', () => {
  let api: ServeServer;
  let hooks: WebhookServer;
  let mode: 'convert' | 'fail' | 'wrong-version' | 'rename' = 'convert';
  beforeAll(async () => {
    [api, hooks] = await Promise.all([serve({ seed: 12 }), startWebhookServer()]);
    hooks.handle('/convert', (review) => {
      const { uid, desiredAPIVersion, objects } = review.request;
      if (mode === 'fail') return { uid, result: { status: 'Failure', message: 'cannot convert widgets today' } };
      const converted = objects.map((o: Obj) => convertSize(o, desiredAPIVersion));
      if (mode === 'wrong-version') converted[0].apiVersion = 'example.com/v9';
      if (mode === 'rename') for (const c of converted) c.metadata = { ...c.metadata, generation: 99, labels: { converted: 'yes' } };
      return { uid, convertedObjects: converted, result: { status: 'Success' } };
    });
    const crd = sizeCrd('Widget', { url: hooks.url('/convert'), caBundle: hooks.caBundle });
    expect((await send('POST', CRDS, crd)).status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
    await hooks.close();
  });
  afterEach(() => {
    mode = 'convert';
    hooks.received.length = 0;
  });

  const send = (method: string, path: string, body?: unknown, contentType?: string) => sendJson(api.url, method, path, body, contentType);

  const widgetV2 = (name: string, size: number) => ({ apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name }, spec: { dimensions: { size } } });

  it('a write in the non-storage version is converted for the store, and back for the answer', async () => {
    const created = await send('POST', V2, widgetV2('w1', 3));
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('example.com/v2');
    expect(created.json.spec).toEqual({ dimensions: { size: 3 } });
    const reviews = hooks.reviews('/convert');
    expect(reviews.map((r) => [r.request.desiredAPIVersion, r.request.objects[0].apiVersion])).toEqual([
      ['example.com/v1', 'example.com/v2'],
      ['example.com/v2', 'example.com/v1'],
    ]);
    expect(Object.keys(reviews[0]!)).toEqual(['kind', 'apiVersion', 'request', 'response']);
    expect(reviews[0]).toMatchObject({ kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1' });
    expect(Object.keys(reviews[0]!.request)).toEqual(['uid', 'desiredAPIVersion', 'objects']);
    // Stored in v1: read there without the webhook.
    const v1 = await send('GET', `${V1}/w1`);
    expect(v1.json.spec).toEqual({ size: 3 });
    expect(v1.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    const v2 = await send('GET', `${V2}/w1`);
    expect(v2.json).toMatchObject({ apiVersion: 'example.com/v2', spec: { dimensions: { size: 3 } }, metadata: { name: 'w1', resourceVersion: created.json.metadata.resourceVersion } });
    const list = await send('GET', V2);
    // Reads call no webhook: the forms were made when the object was written.
    expect(hooks.reviews('/convert')).toHaveLength(2);
    expect(list.json.items.map((i: Obj) => i.spec)).toEqual([{ dimensions: { size: 3 } }]);
  });

  it('writes in the storage version are converted for the other versions; patches and watches in v2 see the webhook’s form', async () => {
    const head = api.status().headResourceVersion;
    const watched = collectWatch(`${api.url}${V2}?watch=1&resourceVersion=${head}`, (events) => events.length >= 2);
    expect((await send('POST', V1, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { size: 1 } })).status).toBe(201);
    const patched = await send('PATCH', `${V2}/w2`, { spec: { dimensions: { size: 7 } } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json.spec).toEqual({ dimensions: { size: 7 } });
    expect((await send('GET', `${V1}/w2`)).json.spec).toEqual({ size: 7 });
    const { events } = await watched;
    expect(events.map((e) => [e.type, e.object.apiVersion, e.object.spec])).toEqual([
      ['ADDED', 'example.com/v2', { dimensions: { size: 1 } }],
      ['MODIFIED', 'example.com/v2', { dimensions: { size: 7 } }],
    ]);
  });

  it('a converted form is written as the apiserver writes JSON: <, > and & escaped', async () => {
    const created = await send('POST', V1, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'esc', annotations: { note: 'a<b&c>' } }, spec: { size: 1 } });
    expect(created.status).toBe(201);
    const raw = await get(`${api.url}${V2}/esc`);
    expect(raw.body.toString('utf8')).toContain('"note":"a\\u003cb\\u0026c\\u003e"');
    expect(JSON.parse(raw.body.toString('utf8')).spec).toEqual({ dimensions: { size: 1 } });
  });

  it('of the metadata a webhook returns only labels and annotations are kept', async () => {
    mode = 'rename';
    const created = await send('POST', V2, widgetV2('w3', 2));
    expect(created.status).toBe(201);
    expect(created.json.metadata).toMatchObject({ name: 'w3', generation: 1, labels: { converted: 'yes' } });
    expect((await send('GET', `${V1}/w3`)).json.metadata).toMatchObject({ generation: 1, labels: { converted: 'yes' } });
  });

  it('a failing or invalid conversion is the 500 the apiserver answers, and nothing is stored', async () => {
    mode = 'fail';
    const failed = await send('POST', V2, widgetV2('w4', 4));
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'conversion webhook for example.com/v2, Kind=Widget failed: cannot convert widgets today', code: 500 });
    mode = 'wrong-version';
    const wrong = await send('POST', V2, widgetV2('w4', 4));
    expect(wrong.status).toBe(500);
    expect(wrong.json.message).toBe('conversion webhook for example.com/v2, Kind=Widget returned invalid object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v9)');
    expect((await send('GET', `${V1}/w4`)).status).toBe(404);
  });
});
