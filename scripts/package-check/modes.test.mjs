// The same test as an ES module (jest run with --experimental-vm-modules): serve, record and replay in-process, as the README's library
// section shows. record() reads serve's kubeconfig through @kubernetes/client-node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, record, replay } from 'kubetape';

const dir = mkdtempSync(join(tmpdir(), 'kubetape-consumer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function getJson(url) {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  return { status: res.status, body: await res.json() };
}

test('serve, record through a kubeconfig, replay the recording', async () => {
  const api = await serve({});
  try {
    const recorder = await record({ db: join(dir, 'session.db'), kubeconfig: api.kubeconfigPath });
    const recorded = await getJson(`${recorder.url}/api/v1/namespaces`);
    await recorder.close();
    expect(recorded.status).toBe(200);
    expect(recorded.body.items.map((n) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);

    const tape = await replay({ db: join(dir, 'session.db') });
    try {
      expect(await getJson(`${tape.url}/api/v1/namespaces`)).toEqual(recorded);
    } finally {
      await tape.close();
    }
  } finally {
    await api.close();
  }
});
