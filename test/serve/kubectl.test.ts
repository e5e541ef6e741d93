import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { record } from '../../src/record';
import { serve, type ServeServer } from '../../src/serve';
import { get, watch } from '../support/http-client';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';

/**
 * kubectl against serve prints what it printed live through `record` against the fake upstream
 * at the same state (the AGE column aside: it is computed per request).
 */
describe('kubectl: serve answers as the live cluster did', () => {
  let dir: string;
  let upstream: FakeApiserver;
  let api: ServeServer;
  const live: Record<string, string> = {};
  let liveWatch = '';

  function kubectl(kubeconfig: string, args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache', String(Math.random())), ...args], { encoding: 'utf8', timeout: 20_000 }, (err, out, stderr) =>
        err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`)) : resolve(out),
      );
    });
  }

  /** `kubectl get -w` until `until` matches its output; `during` runs once the watch is open. */
  async function watchOutput(kubeconfig: string, during: () => void | Promise<void>, until: (out: string) => boolean): Promise<string> {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache', String(Math.random())), 'get', 'configmaps', '-n', 'tx', '-w']);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const wait = async (done: (out: string) => boolean) => {
      for (let i = 0; i < 200 && !done(out); i++) await new Promise((r) => setTimeout(r, 50));
      if (!done(out)) throw new Error(`kubectl get -w printed:\n${out}`);
    };
    try {
      await wait((o) => /^cm-05\s/m.test(o));
      await new Promise((r) => setTimeout(r, 300)); // the watch request follows the list
      await during();
      await wait(until);
      return out;
    } finally {
      child.kill();
    }
  }

  /** The -w output holds the three changes: the new object, cm-01 again, cm-02 again (its deletion). */
  function allChanges(out: string): boolean {
    return /^watched\s/m.test(out) && (out.match(/^cm-01\s/gm) ?? []).length === 2 && (out.match(/^cm-02\s/gm) ?? []).length === 2;
  }

  /** Output lines with the AGE column (the last one) cut off. */
  function withoutAge(out: string): string[] {
    return out.trim().split('\n').map((line) => line.replace(/\s+\S+$/, ''));
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-kubectl-'));
    upstream = await startFakeApiserver();
    upstream.seedConfigMaps('tx', 5);
    const db = join(dir, 'session.db');
    const proxy = await record({ db, upstream: upstream.url, listen: '127.0.0.1:0', writeKubeconfig: join(dir, 'record.kubeconfig') });
    const kc = join(dir, 'record.kubeconfig');
    live.get = await kubectl(kc, ['get', 'configmaps', '-n', 'tx']);
    live.json = await kubectl(kc, ['get', 'configmaps', '-n', 'tx', '-o', 'json']);
    live.chunked = await kubectl(kc, ['get', 'configmaps', '-n', 'tx', '--chunk-size=2']);
    liveWatch = await watchOutput(
      kc,
      () => {
        upstream.create('configmaps', 'tx', { metadata: { name: 'watched' }, data: { a: '1', b: '2' } });
        upstream.patchData('configmaps', 'tx', 'cm-01', { k: 'changed', extra: 'x' });
        upstream.delete('configmaps', 'tx', 'cm-02');
      },
      allChanges,
    );
    await new Promise((r) => setTimeout(r, 300));
    live.getAfter = await kubectl(kc, ['get', 'configmaps', '-n', 'tx']);
    live.jsonAfter = await kubectl(kc, ['get', 'configmaps', '-n', 'tx', '-o', 'json']);
    await proxy.close();
    api = await serve({ db, clock: 'manual' });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('recorded what a live session shows', () => {
    expect(withoutAge(live.get!)).toEqual(['NAME    DATA', 'cm-01   1', 'cm-02   1', 'cm-03   1', 'cm-04   1', 'cm-05   1']);
    expect(withoutAge(liveWatch).slice(6)).toEqual(['watched   2', 'cm-01     2', 'cm-02     1']);
    expect(JSON.parse(live.jsonAfter!).items.map((i: any) => i.metadata.name)).toEqual(['cm-01', 'cm-03', 'cm-04', 'cm-05', 'watched']);
  });

  it('get, get -o json and get --chunk-size=2 at the first recorded state', async () => {
    expect(withoutAge(await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx']))).toEqual(withoutAge(live.get!));
    expect(await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx', '-o', 'json'])).toBe(live.json);
    expect(withoutAge(await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx', '--chunk-size=2']))).toEqual(withoutAge(live.chunked!));
  });

  it('a resource discovery announces but the session never read is served empty, an unknown one is not found', async () => {
    expect(await kubectl(api.kubeconfigPath, ['get', 'secrets', '-n', 'tx', '-o', 'name'])).toBe('');
    await expect(kubectl(api.kubeconfigPath, ['get', 'nosuchthings'])).rejects.toThrow(/the server doesn't have a resource type "nosuchthings"/);
  });

  it('describe works though the recording has no events: they are served as an empty resource', async () => {
    const out = await kubectl(api.kubeconfigPath, ['describe', 'configmap', 'cm-01', '-n', 'tx']);
    expect(out).toMatch(/^Name:\s+cm-01$/m);
    expect(out).toMatch(/^Namespace:\s+tx$/m);
    expect(out).toMatch(/^Events:\s+<none>$/m);
    expect(await kubectl(api.kubeconfigPath, ['get', 'events.v1.events.k8s.io', '-A', '-o', 'name'])).toBe('');
    const head = api.status().headResourceVersion;
    const list = await get(`${api.url}/api/v1/namespaces/tx/events?fieldSelector=involvedObject.name%3Dcm-01`);
    expect([list.status, list.json.kind, list.json.apiVersion, list.json.metadata.resourceVersion, list.json.items]).toEqual([200, 'EventList', 'v1', head, []]);
    const w = watch(`${api.url}/apis/events.k8s.io/v1/events?watch=true&resourceVersion=${head}&timeoutSeconds=1`);
    expect(await w.status).toBe(200);
    expect(await w.ended).toEqual([]);
  });

  it('OpenAPI v3 is built from the resources seen (none was recorded): get --raw and a client-side dry-run apply', async () => {
    const index = JSON.parse(await kubectl(api.kubeconfigPath, ['get', '--raw', '/openapi/v3']));
    expect(Object.keys(index.paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/events.k8s.io/v1']));
    const file = join(dir, 'cm.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-01\n  namespace: tx\ndata:\n  k: v\n');
    expect(await kubectl(api.kubeconfigPath, ['apply', '--dry-run=client', '-f', file])).toBe('configmap/cm-01 configured (dry run)\n');
  });

  it('get -w sees the recorded changes as the clock advances, then get and -o json match the end state', async () => {
    const served = await watchOutput(api.kubeconfigPath, () => void api.advance({ toEnd: true }), allChanges);
    expect(withoutAge(served)).toEqual(withoutAge(liveWatch));
    expect(withoutAge(await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx']))).toEqual(withoutAge(live.getAfter!));
    expect(await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx', '-o', 'json'])).toBe(live.jsonAfter);
  });
});
