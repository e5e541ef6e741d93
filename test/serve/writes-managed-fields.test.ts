/**
 * managedFields of Update operations over the schema: what serve records for the creates of the
 * w1-defaults transcripts equals, byte for byte, what the real apiserver recorded (list items
 * keyed by the schema's list-map keys, `".":{}` only on what the create really added, atomic
 * selectors as leaves).
 */
import { send, writeExchange } from './write-transcripts';
import { serve, type ServeServer } from '../../src/serve';

const KINDS = ['pod', 'deployment', 'statefulset', 'daemonset', 'job', 'cronjob', 'service-clusterip', 'secret-opaque-stringdata'];

describe('serve writes: managedFields of creates over the schema', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 1 });
    const ns = await send(api.url + '/api/v1/namespaces', 'POST', { 'Content-Type': 'application/json' }, '{"metadata":{"name":"w"}}');
    expect(ns.status).toBe(201);
  });
  afterAll(() => api.close());

  it.each(KINDS)('%s: the creator’s entry is the real apiserver’s', async (kind) => {
    const ex = writeExchange(`w1-defaults-${kind}`);
    const reply = await send(api.url + ex.path, 'POST', { 'Content-Type': 'application/json', 'User-Agent': 'probe/1.0' }, ex.requestBody);
    expect(reply.status).toBe(201);
    const entries = (body: string) => JSON.parse(body).metadata.managedFields.map(({ time: _, ...e }: Record<string, unknown>) => JSON.stringify(e));
    expect(entries(reply.body)).toEqual(entries(ex.body));
  });
});
