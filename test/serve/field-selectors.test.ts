/**
 * Field selectors per kind against the real apiserver's w10 exchanges: the objects those lists
 * returned are recorded, the same requests are sent to serve, and the answers must select the
 * same objects, or give the same 400.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { collectWatch, get, request } from '../support/http-client';
import { transcript, TRANSCRIPTS_DIR } from '../support/transcripts';
import { RecordingBuilder, type ResourceRef } from '../support/recording-builder';

const REFS: Record<string, ResourceRef> = {
  pods: { version: 'v1', resource: 'pods', kind: 'Pod' },
  events: { version: 'v1', resource: 'events', kind: 'Event' },
  secrets: { version: 'v1', resource: 'secrets', kind: 'Secret' },
  namespaces: { version: 'v1', resource: 'namespaces', kind: 'Namespace' },
  configmaps: { version: 'v1', resource: 'configmaps', kind: 'ConfigMap' },
  services: { version: 'v1', resource: 'services', kind: 'Service' },
};

const LISTS = readdirSync(TRANSCRIPTS_DIR)
  .filter((f) => /^w10-.*fieldselector.*\.txt$/.test(f))
  .map((f) => f.slice(0, -'.txt'.length));

const resourceOf = (path: string) => /\/api\/v1\/(?:namespaces\/[^/]+\/)?(\w+)\?/.exec(path)![1]!;
const names = (list: any) => list.items.map((i: any) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`).sort();

describe('serve: field selectors per kind (w10)', () => {
  let dir: string;
  let api: ServeServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-fields-'));
    const objects = new Map<string, Map<string, any>>(Object.keys(REFS).map((r) => [r, new Map()]));
    for (const name of LISTS) {
      const t = transcript(name);
      if (t.status !== 200 || !t.json?.items) continue;
      for (const item of t.json.items) objects.get(resourceOf(t.path))!.set(`${item.metadata.namespace}/${item.metadata.name}`, item);
    }
    const b = new RecordingBuilder(join(dir, 'f.db'));
    for (const [resource, items] of objects) b.list(REFS[resource]!, { rv: 1000, items: [...items.values()] });
    b.close();
    api = await serve({ db: join(dir, 'f.db') });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(LISTS)('%s', async (name) => {
    const t = transcript(name);
    const reply = await get(api.url + t.path);
    expect(reply.status).toBe(t.status);
    if (t.status === 200) expect(names(reply.json)).toEqual(names(t.json));
    else expect(reply.json).toEqual(t.json);
  });

  it('the pod fields the apiserver computes: status.podIP is the first podIPs entry; status.podIPs matches only ""', async () => {
    const pods = (q: string) => get(`${api.url}/api/v1/namespaces/w/pods?fieldSelector=${encodeURIComponent(q)}`).then((r) => names(r.json));
    const all = await pods('');
    expect(all.length).toBeGreaterThan(1);
    expect(await pods('status.podIPs=')).toEqual(all);
    expect(await pods('status.podIPs=10.0.0.1')).toEqual([]);
  });

  it('a watch takes the same selectors and the same 400s', async () => {
    const { events } = await collectWatch(`${api.url}/api/v1/namespaces/w/pods?watch=1&fieldSelector=spec.nodeName%3Dn1&timeoutSeconds=1`, () => false, {}, 3000);
    const expected = names(transcript('w10-pods-fieldselector-nodename').json);
    expect(events.map((e: any) => `${e.object.metadata.namespace}/${e.object.metadata.name}`).sort()).toEqual(expected);
    const bad = await get(`${api.url}/api/v1/namespaces/w/pods?watch=1&fieldSelector=spec.hostNetwork%3Dtrue`);
    expect([bad.status, bad.json.message]).toEqual([400, 'field label not supported: spec.hostNetwork']);
  });

  it('deletecollection takes them: only the selected secrets go; an unsupported field is the 400 and deletes nothing', async () => {
    const before = names((await get(`${api.url}/api/v1/namespaces/w/secrets`)).json);
    const bad = await request(api.url, '/api/v1/namespaces/w/secrets?fieldSelector=immutable%3Dtrue', { method: 'DELETE' });
    expect([bad.status, bad.json.message]).toEqual([400, 'field label not supported: immutable']);
    expect(names((await get(`${api.url}/api/v1/namespaces/w/secrets`)).json)).toEqual(before);
    const opaque = names(transcript('w10-secrets-fieldselector-type-opaque').json);
    const deleted = await request(api.url, '/api/v1/namespaces/w/secrets?fieldSelector=type%3DOpaque', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(names(deleted.json)).toEqual(opaque);
    expect(names((await get(`${api.url}/api/v1/namespaces/w/secrets`)).json)).toEqual(before.filter((n: string) => !opaque.includes(n)));
  });
});
