import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { tempTxRecording } from './tx-recording';
import { transcript } from '../support/transcripts';

const TX = '/api/v1/namespaces/tx/configmaps';

describe('serve: paging and continue tokens (transcripts a, b, d)', () => {
  let tx: ReturnType<typeof tempTxRecording>;
  let db: string;
  let api: ServeServer;

  beforeAll(() => {
    tx = tempTxRecording();
    db = tx.db;
  });
  afterAll(() => tx.remove());
  afterEach(() => api?.close());

  it('at the first complete state, pages byte for byte as the apiserver did (a1, a2, a4)', async () => {
    api = await serve({ db, clock: 'manual' });
    expect(api.status().headResourceVersion).toBe('232');
    for (const name of ['a1-list-limit5', 'a2-list-continue', 'a4-page1', 'a4-page2', 'a4-page3']) {
      const t = transcript(name);
      const reply = await get(api.url + t.path);
      expect(reply.status).toBe(t.status);
      expect(reply.text).toBe(t.body.toString('utf8'));
      expect(reply.headers['content-type']).toBe('application/json');
    }
    // A curl User-Agent gets the same list pretty-printed (a0).
    const a0 = transcript('a0-list-limit5-curl-UA-pretty');
    expect((await get(api.url + a0.path, { headers: { 'User-Agent': 'curl/7.88.1' } })).text).toBe(a0.body.toString('utf8'));
  });

  it('a continue token survives changes: same snapshot on every page; then 410 after compaction, whose token continues (b0–b2)', async () => {
    api = await serve({ db, clock: 'manual' });
    const first = await get(`${api.url}${TX}?limit=5`);
    const token = first.json.metadata.continue;
    api.advance({ resourceVersion: 236 });
    const second = await get(`${api.url}${TX}?limit=5&continue=${token}`);
    expect(second.text).toBe(transcript('a2-list-continue').body.toString('utf8'));
    expect(api.compact(236)).toBe('236');
    const gone = await get(`${api.url}${TX}?limit=5&continue=${token}`);
    const b1 = transcript('b1-continue-after-compaction-410');
    expect(gone.status).toBe(410);
    expect(gone.text).toBe(b1.body.toString('utf8'));
    const inconsistent = await get(`${api.url}${TX}?limit=5&continue=${gone.json.metadata.continue}`);
    expect(inconsistent.status).toBe(200);
    expect(inconsistent.text).toBe(transcript('b2-continue-with-inconsistent-token').body.toString('utf8'));
  });

  it('at the end state, the list page equals d0; RV 0 with a continue is accepted (d19)', async () => {
    api = await serve({ db });
    expect(api.status().headResourceVersion).toBe('240');
    const d0 = transcript('d0-list-limit5-for-token');
    expect((await get(api.url + d0.path)).text).toBe(d0.body.toString('utf8'));
    const d19 = transcript('d19-list-rv0-continue');
    const reply = await get(api.url + d19.path);
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(d19.body.toString('utf8'));
  });

  it('limit is ignored with RV 0; remainingItemCount is absent with a selector', async () => {
    api = await serve({ db });
    const all = await get(`${api.url}${TX}?limit=5&resourceVersion=0`);
    expect(all.json.items).toHaveLength(30);
    expect(all.json.metadata).toEqual({ resourceVersion: '240' });
    const selected = await get(`${api.url}${TX}?limit=2&fieldSelector=metadata.name!%3Dcm-01`);
    expect(selected.json.items.map((i: any) => i.metadata.name)).toEqual(['cm-02', 'cm-03']);
    expect(selected.json.metadata.remainingItemCount).toBeUndefined();
    expect(selected.json.metadata.continue).toMatch(/^[A-Za-z0-9_-]+$/);
    const next = await get(`${api.url}${TX}?limit=2&fieldSelector=metadata.name!%3Dcm-01&continue=${selected.json.metadata.continue}`);
    expect(next.json.items.map((i: any) => i.metadata.name)).toEqual(['cm-04', 'cm-05']);
  });
});
