import { serve, type ServeServer } from '../../src/serve';
import { get, watch } from '../support/http-client';
import { tempTxRecording } from './tx-recording';
import { transcript, watchLines } from '../support/transcripts';

/**
 * Every invalid or out-of-range parameter of the facts file (transcripts d1–d18) against a
 * store in the state the apiserver was in: head 236, compacted at 236.
 */
describe('serve: resourceVersion rules and bad parameters, byte for byte', () => {
  let tx: ReturnType<typeof tempTxRecording>;
  let api: ServeServer;
  const WAIT_MS = 300;

  beforeAll(async () => {
    tx = tempTxRecording();
    api = await serve({ db: tx.db, clock: 'manual', tooLargeWaitMs: WAIT_MS });
    api.advance({ resourceVersion: 236 });
    api.compact(236);
  });
  afterAll(async () => {
    await api.close();
    tx.remove();
  });

  it.each([
    'd1-get-rv-future',
    'd2-list-rv-future',
    'd3-list-rv-future-exact',
    'd4-list-rv-future-limit',
    'd6-list-exact-no-rv',
    'd7-list-notolderthan-limit-continue',
    'd8-list-rv5-continue',
    'd9-list-notolderthan-no-rv',
    'd10-list-exact-rv0',
    'd11-list-match-bogus',
    'd12-watch-with-rvmatch',
    'd13-list-garbage-continue',
    'd14-list-rv-abc',
    'd15-list-exact-compacted-rv',
    'd16-list-limit-compacted-rv',
    'd17-get-compacted-rv',
    'd18-list-continue-with-rvmatch-exact',
  ])('%s', async (name) => {
    const t = transcript(name);
    const reply = await get(api.url + t.path);
    expect(reply.status).toBe(t.status);
    expect(reply.text).toBe(t.body.toString('utf8'));
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['retry-after']).toBe(t.headers['retry-after']);
    if (t.status === 504) expect(reply.ms).toBeGreaterThanOrEqual(WAIT_MS - 20);
    else expect(reply.ms).toBeLessThan(WAIT_MS);
  });

  it('list with NotOlderThan and limit at a future RV: 504 at once, without Retry-After (etcd path, d2n shape)', async () => {
    const reply = await get(`${api.url}/api/v1/namespaces/tx/configmaps?resourceVersion=99999999&resourceVersionMatch=NotOlderThan&limit=5`);
    expect(reply.status).toBe(504);
    expect(reply.text).toBe(transcript('d2n-list-rv-future-nocache').body.toString('utf8').replace('current: 341', 'current: 236'));
    expect(reply.headers['retry-after']).toBeUndefined();
  });

  it('a get/list waiting for a future RV is answered as soon as the clock reaches it', async () => {
    const pending = get(`${api.url}/api/v1/namespaces/tx/configmaps/cm-02?resourceVersion=240`);
    await new Promise((r) => setTimeout(r, 50));
    api.advance({ toEnd: true });
    const reply = await pending;
    expect(reply.status).toBe(200);
    expect(reply.json.metadata.resourceVersion).toBe('235');
  });

  it('watch at a future RV: 200 and an empty stream until timeoutSeconds (d5)', async () => {
    const w = watch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=99999999&timeoutSeconds=1`);
    expect(await w.status).toBe(200);
    expect(await w.ended).toEqual([]);
    expect((await w.headers)['transfer-encoding']).toBe('chunked');
  });

  it('watch below the floor: 200, one ERROR event, then the end (c2)', async () => {
    const w = watch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=1&timeoutSeconds=3`);
    expect(await w.status).toBe(200);
    const expected = watchLines(transcript('c2-watch-rv1-cache-on')).map((l) => l.replace('(198)', '(236)'));
    expect(await w.ended).toEqual(expected);
  });

  it('unknown resources, objects and methods', async () => {
    const noResource = await get(`${api.url}/api/v1/namespaces/tx/widgets`);
    expect(noResource.status).toBe(404);
    expect(noResource.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });
    const noObject = await get(`${api.url}/api/v1/namespaces/tx/configmaps/nope`);
    expect(noObject.status).toBe(404);
    expect(noObject.text).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"configmaps"},"code":404}\n');
    const write = await get(`${api.url}/api/v1/namespaces/tx/configmaps/cm-01`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    expect(write.status).toBe(405);
    expect(write.json.reason).toBe('MethodNotAllowed');
    expect(write.json.message).toBe('the server does not allow this method on the requested resource');
  });
});

describe('serve: watch from an RV inside the history (c1)', () => {
  let tx: ReturnType<typeof tempTxRecording>;
  let api: ServeServer;

  beforeAll(async () => {
    tx = tempTxRecording();
    api = await serve({ db: tx.db, clock: 'manual' });
    api.advance({ resourceVersion: 236 });
  });
  afterAll(async () => {
    await api.close();
    tx.remove();
  });

  it('sends the changes after the RV, byte for byte, and ends at timeoutSeconds', async () => {
    const t = transcript('c1-watch-rv233-compacted-in-etcd-cache-on');
    const started = Date.now();
    const w = watch(`${api.url}${t.path.replace('timeoutSeconds=3', 'timeoutSeconds=1')}`);
    expect(await w.ended).toEqual(watchLines(t));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
