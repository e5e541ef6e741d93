/**
 * The example controllers of examples/controllers/ (the acceptance controllers of
 * `kubetape explore`): unperturbed, against a plain empty serve, both the buggy and the fixed
 * variant of each run its workload to the expected end state (their bugs only show under a
 * perturbation) and exit 0 on SIGTERM.
 */
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { loadWorkload, startController, stopController, WorkloadRunner } from './workload-runner';

const EXAMPLES = join(__dirname, '../../examples/controllers');

type ConfigMap = Record<string, any>;

/** The demo namespace's ConfigMaps (without the root CA one), by name. */
function configMaps(api: ServeServer): Map<string, ConfigMap> {
  return new Map(api.objects('configmaps', 'demo').filter((cm) => cm.metadata.name !== 'kube-root-ca.crt').map((cm) => [cm.metadata.name, cm]));
}

async function runExample(name: string, variant: 'buggy' | 'fixed'): Promise<{ end: Map<string, ConfigMap>; log: string[] }> {
  const api = await serve({});
  const log: string[] = [];
  try {
    const controller = await startController(join(EXAMPLES, name, `${variant}.js`), api.kubeconfigPath, log);
    try {
      const fingerprint = () => JSON.stringify([...configMaps(api).values()].map((cm) => [cm.metadata.name, cm.metadata.resourceVersion]));
      await new WorkloadRunner(api.url, fingerprint).run(loadWorkload(join(EXAMPLES, name, 'workload.yaml')));
    } catch (err) {
      throw new Error(`${(err as Error).message}\ncontroller log:\n${log.join('\n')}`);
    } finally {
      expect(await stopController(controller)).toBe(0);
    }
    return { end: configMaps(api), log };
  } finally {
    await api.close();
  }
}

describe.each(['buggy', 'fixed'] as const)('examples/controllers, %s variant, unperturbed', (variant) => {
  test('cleaner: the recreated parent-a keeps its new child-a, adopted by its uid', async () => {
    const { end, log } = await runExample('cleaner', variant);
    expect([...end.keys()].sort()).toEqual(['child-a', 'parent-a']);
    const parent = end.get('parent-a')!;
    const child = end.get('child-a')!;
    expect(parent.data).toEqual({ generation: '2' });
    expect(parent.metadata.finalizers).toEqual(['cleaner.example.kubetape.io/children']);
    expect(child.data).toEqual({ generation: '2' });
    expect(child.metadata.annotations['parent-uid']).toBe(parent.metadata.uid);
    expect(log.filter((l) => l.includes('deleting child-a'))).toHaveLength(1);
  });

  test('scaler: the replaced set-a has its three children of version v2, and only those', async () => {
    const { end } = await runExample('scaler', variant);
    expect([...end.keys()].sort()).toEqual(['set-a', 'set-a-0', 'set-a-1', 'set-a-2']);
    const set = end.get('set-a')!;
    expect(set.data).toEqual({ size: '3', version: 'v2' });
    for (const name of ['set-a-0', 'set-a-1', 'set-a-2']) {
      const child = end.get(name)!;
      expect({ name, data: child.data, owner: child.metadata.annotations['set-uid'] }).toEqual({ name, data: { version: 'v2' }, owner: set.metadata.uid });
    }
  });

  test('provisioner: each claim is bound to the one volume made for it', async () => {
    const { end } = await runExample('provisioner', variant);
    for (const claimName of ['claim-a', 'claim-b']) {
      const claim = end.get(claimName)!;
      const volumes = [...end.values()].filter((cm) => cm.metadata.labels?.claim === claimName);
      expect(volumes.map((v) => v.metadata.name)).toEqual([claim.data.volume]);
      expect(claim.data.phase).toBe('Bound');
      expect(volumes[0].metadata.annotations['claim-uid']).toBe(claim.metadata.uid);
      if (variant === 'fixed') expect(claim.data.volume).toBe(`${claimName}-volume`);
      else expect(claim.data.volume).toMatch(new RegExp(`^${claimName}-[a-z0-9]{5}$`));
    }
    expect(end.size).toBe(4);
  });
});

describe('examples/controllers: provisioner restarted after a crash between its two writes', () => {
  /**
   * The state such a crash leaves, made by hand: claim-a unbound, and a volume created for it
   * (named as the variant names volumes) that no claim records. Then the controller starts.
   */
  async function afterCrash(variant: 'buggy' | 'fixed'): Promise<Map<string, ConfigMap>> {
    const api = await serve({});
    const log: string[] = [];
    try {
      const post = (path: string, body: unknown) => fetch(api.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<ConfigMap>);
      await post('/api/v1/namespaces', { metadata: { name: 'demo' } });
      const claim = await post('/api/v1/namespaces/demo/configmaps', { metadata: { name: 'claim-a' }, data: { size: '1Gi' } });
      const naming = variant === 'fixed' ? { name: 'claim-a-volume' } : { generateName: 'claim-a-' };
      await post('/api/v1/namespaces/demo/configmaps', { metadata: { ...naming, labels: { claim: 'claim-a' }, annotations: { 'claim-uid': claim.metadata.uid } }, data: { claim: 'claim-a' } });
      const controller = await startController(join(EXAMPLES, 'provisioner', `${variant}.js`), api.kubeconfigPath, log);
      try {
        const runner = new WorkloadRunner(api.url, () => JSON.stringify([...configMaps(api).values()].map((cm) => cm.metadata.resourceVersion)));
        await runner.run({ steps: [{ wait: { resource: 'configmaps', namespace: 'demo', name: 'claim-a', jsonpath: '{.data.phase}', equals: 'Bound', timeout: '15s' } }, { quiesce: { seconds: 0.5 } }] });
      } finally {
        expect(await stopController(controller)).toBe(0);
      }
      return configMaps(api);
    } finally {
      await api.close();
    }
  }
  const volumes = (end: Map<string, ConfigMap>) => [...end.values()].filter((cm) => cm.metadata.labels?.claim === 'claim-a').map((cm) => cm.metadata.name);

  test('buggy: a second volume is created; the first stays, named by nothing', async () => {
    const end = await afterCrash('buggy');
    expect(volumes(end)).toHaveLength(2);
    expect(volumes(end)).toContain(end.get('claim-a')!.data.volume);
  });

  test('fixed: the volume there is adopted, no second one', async () => {
    const end = await afterCrash('fixed');
    expect(volumes(end)).toEqual(['claim-a-volume']);
    expect(end.get('claim-a')!.data.volume).toBe('claim-a-volume');
  });
});
