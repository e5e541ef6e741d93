/**
 * CRD conversion webhooks checked against the v1.26 apiextensions-apiserver
 * (pkg/apiserver/conversion/webhook_converter.go): the ConversionReview sent (an empty response
 * member, objects without resourceVersion, keys sorted), the checks of the answer and their texts
 * (single-object: invalid groupVersion/kind, same name/namespace/UID, label and annotation values),
 * the webhook's labels stored, and a conversion that fails only for a non-storage version: the
 * write is stored and the reads in that version fail.
 */
import { serve, type ServeServer } from '../../src/serve';
import { collectWatch } from '../support/http-client';
import { startWebhookServer, type WebhookAnswer, type WebhookServer } from '../support/webhook-server';
import { sendJson } from './invalid-status';
import { convertSize, sizeCrd } from './crd-conversion-fixtures';

type Obj = Record<string, any>;

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const V1 = '/apis/example.com/v1/namespaces/default/gadgets';
const V2 = '/apis/example.com/v2/namespaces/default/gadgets';
const GVK1 = 'conversion webhook for example.com/v1, Kind=Gadget';
const GVK2 = 'conversion webhook for example.com/v2, Kind=Gadget';

const SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };

describe('serve: CRD conversion webhooks as the v1.26 apiserver calls and checks them', () => {
  let api: ServeServer;
  let hooks: WebhookServer;
  /** Changes the converted objects of a successful answer (per review); undefined: plain conversion. */
  let tamper: ((converted: Obj[], review: Obj) => WebhookAnswer | void) | undefined;
  beforeAll(async () => {
    [api, hooks] = await Promise.all([serve({ seed: 13 }), startWebhookServer()]);
    hooks.handle('/convert', (review) => {
      const { uid, desiredAPIVersion, objects } = review.request;
      const converted = objects.map((o: Obj) => convertSize(o, desiredAPIVersion));
      const replaced = tamper?.(converted, review);
      return replaced ?? { uid, convertedObjects: converted, result: { status: 'Success' } };
    });
    const crd = sizeCrd('Gadget', { url: hooks.url('/convert'), caBundle: hooks.caBundle }, { properties: { replicas: { type: 'integer' } }, version: { subresources: { scale: SCALE } } });
    expect((await send('POST', CRDS, crd)).status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
    await hooks.close();
  });
  afterEach(() => {
    tamper = undefined;
    hooks.received.length = 0;
  });

  const send = (method: string, path: string, body?: unknown, contentType?: string) => sendJson(api.url, method, path, body, contentType);

  const gadgetV2 = (name: string, size: number, metadata: Obj = {}) => ({ apiVersion: 'example.com/v2', kind: 'Gadget', metadata: { name, ...metadata }, spec: { dimensions: { size } } });

  it('sends the review with an empty response member, ?timeout=30s, objects with sorted keys and without resourceVersion', async () => {
    const created = await send('POST', V2, gadgetV2('r1', 1, { labels: { b: '1', a: '2' } }));
    expect(created.status).toBe(201);
    const update = { ...created.json, spec: { dimensions: { size: 2 } } };
    expect((await send('PUT', `${V2}/r1`, update)).status).toBe(200);
    const calls = hooks.received.filter((r) => r.path === '/convert');
    expect(calls.map((c) => c.url)).toEqual(Array(4).fill('/convert?timeout=30s'));
    for (const call of calls) {
      const review = JSON.parse(call.body) as Obj;
      expect(Object.keys(review)).toEqual(['kind', 'apiVersion', 'request', 'response']);
      expect(review.response).toEqual({ uid: '', convertedObjects: null, result: { metadata: {} } });
      expect(call.body).toContain('"response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}}');
      const [object] = review.request.objects as Obj[];
      expect(object!.metadata.resourceVersion).toBeUndefined();
      expect(Object.keys(object!)).toEqual([...Object.keys(object!)].sort());
      expect(Object.keys(object!.metadata)).toEqual([...Object.keys(object!.metadata)].sort());
      expect(Object.keys(object!.metadata.labels)).toEqual(['a', 'b']);
    }
  });

  it('refuses a converted object of another groupVersion, kind, name, namespace or uid with the single-object texts', async () => {
    const cases: [(o: Obj) => void, string][] = [
      [(o) => (o.apiVersion = 'example.com/v9'), `${GVK2} returned invalid object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v9)`],
      [(o) => (o.kind = 'Gizmo'), `${GVK2} returned invalid object at index 0: invalid kind (expected Gadget, received Gizmo)`],
      [(o) => (o.metadata = { ...o.metadata, name: 'renamed' }), `${GVK2} returned invalid object: must have the same name: r2 != renamed`],
      [(o) => (o.metadata = { ...o.metadata, namespace: 'other' }), `${GVK2} returned invalid object: must have the same namespace: default != other`],
      [(o) => (o.metadata = { ...o.metadata, uid: 'x' }), `${GVK2} returned invalid object: must have the same UID: `],
      [(o) => delete o.kind, `Object 'Kind' is missing in '`],
    ];
    for (const [change, message] of cases) {
      tamper = (converted) => void change(converted[0]!);
      const r = await send('POST', V2, gadgetV2('r2', 1));
      expect(r.status).toBe(500);
      expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', code: 500 });
      expect(r.json.reason).toBeUndefined();
      expect(r.json.message.startsWith(message)).toBe(true);
    }
    expect((await send('GET', `${V1}/r2`)).status).toBe(404);
  });

  it('keeps the labels and annotations the webhook returns (stored from the storage conversion) and refuses invalid ones', async () => {
    tamper = (converted, review) => {
      for (const c of converted) c.metadata = { ...c.metadata, labels: { ...c.metadata.labels, [`to-${review.request.desiredAPIVersion.slice(12)}`]: 'yes' } };
    };
    const created = await send('POST', V2, gadgetV2('r3', 1, { labels: { mine: 'a' } }));
    expect(created.status).toBe(201);
    // Stored as the conversion to v1 gave it; answered in v2 as the conversion back gave it.
    expect(created.json.metadata.labels).toEqual({ mine: 'a', 'to-v1': 'yes', 'to-v2': 'yes' });
    expect((await send('GET', `${V1}/r3`)).json.metadata.labels).toEqual({ mine: 'a', 'to-v1': 'yes' });
    const cases: [(o: Obj) => void, string][] = [
      [(o) => (o.metadata.labels = { 'bad key!': 'v' }), `${GVK2} returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters`],
      [(o) => (o.metadata.labels = { n: 5 }), `${GVK2} returned invalid metadata: metadata.labels[n] must be a string, but is float64 in converted object`],
      [(o) => (o.metadata.annotations = { '/x': 'v' }), `${GVK2} returned invalid metadata: metadata.annotation: Invalid value: "/x": prefix part must be non-empty`],
      [(o) => (o.metadata.labels = ['a']), `${GVK2} returned invalid metadata: invalid metadata.labels of type []interface {} in converted object`],
    ];
    for (const [change, message] of cases) {
      tamper = (converted) => void change(converted[0]!);
      const r = await send('POST', V2, gadgetV2('r4', 1));
      expect(r.status).toBe(500);
      expect(r.json.message.startsWith(message)).toBe(true);
    }
  });

  it('a conversion that fails only for a non-storage version: the storage-version write is stored, reads, lists and watches in that version fail', async () => {
    const failing = (_: Obj[], review: Obj): WebhookAnswer | void => {
      if (review.request.desiredAPIVersion === 'example.com/v2') return { uid: review.request.uid, result: { status: 'Failure', message: 'no v2 today' } };
    };
    const head = api.status().headResourceVersion;
    const watched = collectWatch(`${api.url}${V2}?watch=1&resourceVersion=${head}`, (events) => events.length >= 1);
    tamper = failing;
    const created = await send('POST', V1, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'r5' }, spec: { size: 5 } });
    expect(created.status).toBe(201);
    expect((await send('GET', `${V1}/r5`)).json.spec).toEqual({ size: 5 });
    const expected = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${GVK1} failed: no v2 today`, code: 500 };
    const read = await send('GET', `${V2}/r5`);
    expect([read.status, read.json]).toEqual([500, expected]);
    const list = await send('GET', V2);
    expect([list.status, list.json]).toEqual([500, expected]);
    const { events } = await watched;
    expect(events[0]).toEqual({ type: 'ERROR', object: expected });
    // A write in v2 that converts to v1 but not back: stored, answered with the 500.
    const both = await send('POST', V2, gadgetV2('r6', 6));
    expect([both.status, both.json]).toEqual([500, expected]);
    expect((await send('GET', `${V1}/r6`)).json.spec).toEqual({ size: 6 });
    // Once the webhook converts again, the next write makes the v2 form.
    tamper = undefined;
    expect((await send('PATCH', `${V1}/r5`, { spec: { size: 7 } }, 'application/merge-patch+json')).status).toBe(200);
    expect((await send('GET', `${V2}/r5`)).json.spec).toEqual({ dimensions: { size: 7 } });
  });

  it('an answer that is no ConversionReview, no JSON, or has fields of the wrong JSON types is a 500 with the decoder’s error, and serve keeps serving', async () => {
    tamper = () => ({ raw: { status: 200, body: 'not json at all' } });
    const garbage = await send('POST', V2, gadgetV2('r7', 1));
    expect(garbage.status).toBe(500);
    expect(garbage.json.message.startsWith(`${GVK2} failed: `)).toBe(true);
    tamper = () => ({ raw: { status: 200, body: '{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1"}' } });
    const empty = await send('POST', V2, gadgetV2('r7', 1));
    expect(empty.json.message).toBe(`${GVK2} failed: no response provided`);
    const typed: [Obj, string][] = [
      [{ uid: 5 }, 'json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type types.UID'],
      [{ convertedObjects: {} }, 'json: cannot unmarshal object into Go struct field ConversionResponse.response.convertedObjects of type []runtime.RawExtension'],
      [{ result: { status: true } }, 'json: cannot unmarshal bool into Go struct field Status.response.result.status of type string'],
      [{ result: 'Success' }, 'json: cannot unmarshal string into Go struct field ConversionResponse.response.result of type v1.Status'],
    ];
    for (const [response, message] of typed) {
      tamper = () => ({ raw: { status: 200, body: JSON.stringify({ kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1', response }) } });
      expect((await send('POST', V2, gadgetV2('r7', 1))).json.message).toBe(`${GVK2} failed: ${message}`);
    }
    tamper = () => ({ raw: { status: 200, body: '{"kind":7}' } });
    expect((await send('POST', V2, gadgetV2('r7', 1))).json.message).toBe(`${GVK2} failed: couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string`);
    tamper = undefined;
    expect((await send('POST', V2, gadgetV2('r7', 1))).status).toBe(201);
  });

  it('a watch in v2 with a label selector shows the object that leaves it in the webhook’s v2 form', async () => {
    const head = api.status().headResourceVersion;
    const watched = collectWatch(`${api.url}${V2}?watch=1&labelSelector=team%3Da&resourceVersion=${head}`, (events) => events.length >= 2);
    expect((await send('POST', V1, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'r9', labels: { team: 'a' } }, spec: { size: 9 } })).status).toBe(201);
    const moved = await send('PATCH', `${V1}/r9`, { metadata: { labels: { team: 'b' } } }, 'application/merge-patch+json');
    expect(moved.status).toBe(200);
    const { events } = await watched;
    expect(events.map((e) => [e.type, e.object.apiVersion, e.object.spec, e.object.metadata.labels])).toEqual([
      ['ADDED', 'example.com/v2', { dimensions: { size: 9 } }, { team: 'a' }],
      ['DELETED', 'example.com/v2', { dimensions: { size: 9 } }, { team: 'a' }],
    ]);
    expect(events[1]!.object.metadata.resourceVersion).toBe(moved.json.metadata.resourceVersion);
  });

  it('a scale in v2 converts to the storage version even when dry run or a no-op, as the apiserver encodes it (a failing webhook fails it)', async () => {
    expect((await send('POST', V1, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'r10' }, spec: { size: 1, replicas: 1 } })).status).toBe(201);
    const scale = (await send('GET', `${V2}/r10/scale`)).json;
    expect(scale.spec).toEqual({ replicas: 1 });
    tamper = (_, review) => (review.request.desiredAPIVersion === 'example.com/v1' ? { uid: review.request.uid, result: { status: 'Failure', message: 'no v1 today' } } : undefined);
    const expected = `${GVK2} failed: no v1 today`;
    const dryRun = await send('PUT', `${V2}/r10/scale?dryRun=All`, { ...scale, spec: { replicas: 3 } });
    expect([dryRun.status, dryRun.json.message]).toEqual([500, expected]);
    const noop = await send('PUT', `${V2}/r10/scale`, scale);
    expect([noop.status, noop.json.message]).toEqual([500, expected]);
    tamper = undefined;
    const ok = await send('PUT', `${V2}/r10/scale?dryRun=All`, { ...scale, spec: { replicas: 3 } });
    expect([ok.status, ok.json.spec]).toEqual([200, { replicas: 3 }]);
    expect((await send('GET', `${V1}/r10`)).json.spec.replicas).toBe(1);
  });

  it('deletion through v2: the finalizer mark and the last state are shown in the webhook’s v2 form, in answers and watch events', async () => {
    expect((await send('POST', V1, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'r11', finalizers: ['example.com/keep'] }, spec: { size: 11 } })).status).toBe(201);
    const head = api.status().headResourceVersion;
    const watched = collectWatch(`${api.url}${V2}?watch=1&fieldSelector=metadata.name%3Dr11&resourceVersion=${head}`, (events) => events.length >= 2);
    const marked = await send('DELETE', `${V2}/r11`);
    expect(marked.status).toBe(200);
    expect([marked.json.apiVersion, marked.json.spec, typeof marked.json.metadata.deletionTimestamp]).toEqual(['example.com/v2', { dimensions: { size: 11 } }, 'string']);
    const released = await send('PATCH', `${V2}/r11`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect([released.status, released.json.spec]).toEqual([200, { dimensions: { size: 11 } }]);
    expect((await send('GET', `${V2}/r11`)).status).toBe(404);
    const { events } = await watched;
    expect(events.map((e) => [e.type, e.object.apiVersion, e.object.spec])).toEqual([
      ['MODIFIED', 'example.com/v2', { dimensions: { size: 11 } }],
      ['DELETED', 'example.com/v2', { dimensions: { size: 11 } }],
    ]);
  });

  // Last: it changes the CRD.
  it('after the CRD switches to strategy None, every version reads the stored object with only apiVersion changed', async () => {
    expect((await send('POST', V1, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'r8' }, spec: { size: 8 } })).status).toBe(201);
    expect((await send('GET', `${V2}/r8`)).json.spec).toEqual({ dimensions: { size: 8 } });
    const crd = (await send('GET', `${CRDS}/gadgets.example.com`)).json;
    crd.spec.conversion = { strategy: 'None' };
    expect((await send('PUT', `${CRDS}/gadgets.example.com`, crd)).status).toBe(200);
    hooks.received.length = 0;
    const read = await send('GET', `${V2}/r8`);
    expect([read.json.apiVersion, read.json.spec]).toEqual(['example.com/v2', { size: 8 }]);
    expect((await send('GET', V2)).json.items.find((i: Obj) => i.metadata.name === 'r8').spec).toEqual({ size: 8 });
    expect(hooks.received).toEqual([]);
  });
});
