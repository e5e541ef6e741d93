// The same test as an ES module (jest run with --experimental-vm-modules): serve, record and replay in-process, as the README's library
// section shows. record() reads serve's kubeconfig through @kubernetes/client-node; a CRD's
// validation rule loads @marcbachmann/cel-js.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

test('serve refuses a custom resource that breaks its CRD\'s validation rule', async () => {
  const api = await serve({});
  try {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', names: { plural: 'widgets', kind: 'Widget' }, scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.size < 10', message: 'too big' }] } } } } }],
      },
    };
    writeFileSync(join(dir, 'widget-crd.json'), JSON.stringify(crd));
    await api.crds([join(dir, 'widget-crd.json')]);
    const res = await fetch(`${api.url}/apis/example.com/v1/namespaces/default/widgets`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 12 } }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).message).toBe('Widget.example.com "w" is invalid: spec: Invalid value: "object": too big');
  } finally {
    await api.close();
  }
});
