import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { clientNodeConfig } from '../support/kube-clients';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { CONFIGMAPS, RecordingBuilder, configMap } from '../support/recording-builder';

/**
 * A @kubernetes/client-node informer against serve: after a compaction past its resourceVersion,
 * its next watch gets the ERROR 410 event; it relists and ends with the store's contents.
 */
describe('serve: client-node informer across a compaction', () => {
  let dir: string;
  let api: ServeServer;
  const requests: string[] = [];
  let gate: { armed: boolean; blocked?: () => void; release?: () => void } = { armed: false };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-serve-'));
    const db = join(dir, 'informer.db');
    const b = new RecordingBuilder(db);
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 100, items: [configMap('a', 10), configMap('b', 11), configMap('c', 12)] });
    b.watch(CONFIGMAPS, { namespace: 'tx', query: 'resourceVersion=100', events: [{ type: 'MODIFIED', object: configMap('a', 101, { k: 'a2' }) }] });
    // A later full list: d appeared (115), c is gone (an inferred deletion at 120).
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 120, items: [configMap('a', 101, { k: 'a2' }), configMap('b', 11), configMap('d', 115)] });
    b.close();
    api = await serve({
      db,
      clock: 'manual',
      watchTimeoutMs: 300,
      hooks: {
        onRequest: async ({ info }) => {
          requests.push(`${info.verb} ${info.query.get('resourceVersion') ?? ''}`);
          if (info.verb === 'watch' && gate.armed) {
            gate.armed = false;
            await new Promise<void>((resolve) => {
              gate.release = resolve;
              gate.blocked?.();
            });
          }
          return false;
        },
      },
    });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('receives the 410, relists and holds what the store holds', async () => {
    const kc = clientNodeConfig(api.url);
    const core = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/tx/configmaps', () => core.listNamespacedConfigMap({ namespace: 'tx' }));
    const errors: unknown[] = [];
    informer.on('error', (err) => errors.push(err));
    await informer.start();
    const cache = () => informer.list('tx').map((o) => `${o.metadata!.name}@${o.metadata!.resourceVersion}`).sort();
    await until(() => cache().join() === 'a@10,b@11,c@12');

    api.advance({ resourceVersion: 101 });
    await until(() => cache().join() === 'a@101,b@11,c@12');

    // Hold the informer's next watch (it re-watches from 101) while the store moves on and compacts.
    await new Promise<void>((resolve) => {
      gate = { armed: true, blocked: resolve };
    });
    api.advance({ toEnd: true });
    expect(api.compact()).toBe('120');
    const listsBefore = requests.filter((r) => r.startsWith('list')).length;
    gate.release!();

    await until(() => cache().join() === 'a@101,b@11,d@115');
    expect(requests.filter((r) => r.startsWith('list')).length).toBe(listsBefore + 1);
    expect(requests).toContain('watch 101');
    const store = (await get(`${api.url}/api/v1/namespaces/tx/configmaps`)).json.items;
    const essence = (o: any) => ({ name: o.metadata.name, uid: o.metadata.uid, rv: o.metadata.resourceVersion, data: o.data });
    expect(informer.list('tx').map(essence).sort(byName)).toEqual(store.map(essence).sort(byName));
    expect(errors).toEqual([]);
    await informer.stop();
  });
});

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : 1;
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}
