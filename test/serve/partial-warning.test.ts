/**
 * serve of a recording that holds objects only as Table rows (kubectl get) or PartialObjectMetadata
 * (metadata informers): full-object gets, lists and watches answer in the apiserver's shape with one
 * `Warning: 299` naming what is missing; Table and PartialObjectMetadata answers carry none; the
 * start-up log names each such resource.
 */
import { join } from 'node:path';
import pino from 'pino';
import { recordSession, type RecordedSession } from '../support/record-session';
import { httpRequest, watch } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { NO_CONTROLLERS, serve, type ServeServer } from '../../src/serve';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const METADATA = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json';
const warning = (n: number, resource: string, seenAs: string) =>
  `299 - "kubetape: the recording holds only the metadata of ${n} ${resource} (seen as ${seenAs}); their other fields are missing"`;

let session: RecordedSession;
let api: ServeServer;
const logLines: Array<Record<string, any>> = [];

beforeAll(async () => {
  session = await recordSession('kubetape-partial-serve-', async ({ fake, kubeconfig, dir }) => {
    fake.create('secrets', 'default', { metadata: { name: 's1' }, stringData: { a: 'b' } });
    fake.create('secrets', 'default', { metadata: { name: 's2' }, stringData: { a: 'b' } });
    await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'cm', '-A']);
    const url = new URL(kubeconfigServer(kubeconfig));
    const meta = await httpRequest(`${url.origin}/api/v1/namespaces/default/secrets`, { headers: { Accept: METADATA } });
    expect(JSON.parse(meta.body.toString()).kind).toBe('PartialObjectMetadataList');
  });
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) });
  api = await serve({ db: session.db, listen: '127.0.0.1:0', controllers: NO_CONTROLLERS, logger });
});

afterAll(async () => {
  await api?.close();
  session?.remove();
});

function kubeconfigServer(path: string): string {
  return /server: (\S+)/.exec(require('node:fs').readFileSync(path, 'utf8'))![1]!;
}

test('a full list: the objects as recorded (no data) and one warning naming the resource and the count', async () => {
  const r = await httpRequest(`${api.url}/api/v1/namespaces/default/configmaps`, { headers: { Accept: 'application/json' } });
  expect(r.status).toBe(200);
  const list = JSON.parse(r.body.toString());
  expect(list.kind).toBe('ConfigMapList');
  expect(list.items).toHaveLength(5);
  // Items of a typed list carry no kind/apiVersion, as the apiserver writes them; no data.
  expect(list.items[0]).toEqual({ metadata: expect.objectContaining({ name: 'cm-01', namespace: 'default' }) });
  expect(r.headers.warning).toBe(warning(5, 'configmaps', 'Table rows'));
});

test('PartialObjectMetadata-only objects: named as such, one object in the singular', async () => {
  const list = await httpRequest(`${api.url}/api/v1/namespaces/default/secrets`, { headers: { Accept: 'application/json' } });
  expect(list.headers.warning).toBe(warning(2, 'secrets', 'PartialObjectMetadata'));
  const one = await httpRequest(`${api.url}/api/v1/namespaces/default/secrets?fieldSelector=metadata.name%3Ds1`, { headers: { Accept: 'application/json' } });
  expect(one.headers.warning).toBe('299 - "kubetape: the recording holds only the metadata of 1 of the secrets (seen as PartialObjectMetadata); its other fields are missing"');
  const get = await httpRequest(`${api.url}/api/v1/namespaces/default/secrets/s2`, { headers: { Accept: 'application/json' } });
  expect(get.status).toBe(200);
  expect(JSON.parse(get.body.toString()).data).toBeUndefined();
  expect(get.headers.warning).toBe('299 - "kubetape: the recording holds only the metadata of secrets default/s2 (seen as PartialObjectMetadata); its other fields are missing"');
});

test('Table and PartialObjectMetadata answers carry no warning: the client asked for no more', async () => {
  for (const accept of [TABLE, METADATA]) {
    const r = await httpRequest(`${api.url}/api/v1/namespaces/default/configmaps`, { headers: { Accept: accept } });
    expect(r.status).toBe(200);
    expect(r.headers.warning).toBeUndefined();
  }
  const get = await httpRequest(`${api.url}/api/v1/namespaces/default/configmaps/cm-01`, { headers: { Accept: TABLE } });
  expect(get.headers.warning).toBeUndefined();
});

test('a watch: the warning in its head, the ADDED events without data', async () => {
  const w = watch(`${api.url}/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1`, { Accept: 'application/json' });
  expect((await w.headers).warning).toBe(warning(5, 'configmaps', 'Table rows'));
  const lines = await w.waitFor(5);
  expect(JSON.parse(lines[0]!).object.data).toBeUndefined();
  w.close();
  const table = watch(`${api.url}/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1`, { Accept: TABLE });
  expect((await table.headers).warning).toBeUndefined();
  table.close();
});

test('the start-up log names each resource known only by metadata', () => {
  const partial = logLines.filter((l) => /objects known only by their metadata/.test(l.msg));
  expect(partial.map((l) => ({ resource: l.resource, tableRows: l.tableRows, metadata: l.metadata, level: l.level }))).toEqual([
    { resource: 'configmaps/v1', tableRows: 5, metadata: 0, level: 40 },
    { resource: 'secrets/v1', tableRows: 0, metadata: 2, level: 40 },
  ]);
  expect(partial[0]!.msg).toBe('configmaps/v1: objects known only by their metadata (5 as Table rows); full-object answers lack their other fields (record with --complete)');
});
