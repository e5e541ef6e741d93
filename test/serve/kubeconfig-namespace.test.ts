import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { serve, type ServeServer } from '../../src/serve';
import { CONFIGMAPS, RecordingBuilder } from '../support/recording-builder';
import { kubectl } from '../support/kube-clients';

/** The namespace of the kubeconfig serve writes: where the recording's objects are. */
const EXAMPLE = join(__dirname, '..', '..', 'recordings', 'examples', 'configmaps.db');

function cms(namespace: string, rv: number, names: string[]): Record<string, any>[] {
  return names.map((name, i) => ({ metadata: { name, namespace, uid: `${namespace}-${name}`, resourceVersion: String(rv - i), creationTimestamp: '2026-11-21T00:46:05Z' } }));
}

function contextNamespace(kubeconfigPath: string): string {
  const config = YAML.parse(readFileSync(kubeconfigPath, 'utf8'));
  return config.contexts.find((c: any) => c.name === config['current-context']).context.namespace;
}

describe('serve: the kubeconfig namespace', () => {
  let dir: string;
  let api: ServeServer | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-kcns-'));
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the recording\'s only namespace: a bare `kubectl get configmaps` lists the example\'s objects', async () => {
    api = await serve({ db: EXAMPLE });
    expect(contextNamespace(api.kubeconfigPath)).toBe('demo');
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['get', 'configmaps', '-o', 'name']);
    expect(out).toMatchObject({ code: 0, stdout: 'configmap/cm-01\nconfigmap/cm-02\nconfigmap/cm-04\nconfigmap/cm-05\nconfigmap/cm-06\nconfigmap/cm-07\n' });
  });

  it('the busiest namespace, kube-* only when nothing else holds objects; default for an empty cluster', async () => {
    const busy = join(dir, 'busy.db');
    const b = new RecordingBuilder(busy);
    b.list(CONFIGMAPS, { namespace: 'kube-system', rv: 10, items: cms('kube-system', 10, ['a', 'b', 'c', 'd', 'e']) });
    b.list(CONFIGMAPS, { namespace: 'small', rv: 11, items: cms('small', 11, ['a']) });
    b.list(CONFIGMAPS, { namespace: 'big', rv: 12, items: cms('big', 12, ['a', 'b']) });
    b.close();
    api = await serve({ db: busy });
    expect(contextNamespace(api.kubeconfigPath)).toBe('big');
    await api.close();

    const system = join(dir, 'system.db');
    const s = new RecordingBuilder(system);
    s.list(CONFIGMAPS, { namespace: 'kube-system', rv: 10, items: cms('kube-system', 10, ['a']) });
    s.close();
    api = await serve({ db: system });
    expect(contextNamespace(api.kubeconfigPath)).toBe('kube-system');
    await api.close();

    api = await serve({});
    expect(contextNamespace(api.kubeconfigPath)).toBe('default');
  });
});
