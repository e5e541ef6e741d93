/**
 * A controller written with client-node (test/serve/mirror-controller/: informer + work queue)
 * against serve: it converges, retries its 409s under a concurrent writer, and cleans up through
 * its finalizer when a source is deleted.
 */
import { serve, type ServeServer } from '../../src/serve';
import { request, watch } from '../support/http-client';
import { eventually, sleep } from '../support/kube-clients';
import { COPIES, FINALIZER, SOURCE_ANNOTATION, startMirrorController, type MirrorController } from './mirror-controller/mirror-controller';

describe('serve: a small controller written with client-node', () => {
  let api: ServeServer;
  let controller: MirrorController | undefined;
  beforeEach(async () => {
    api = await serve({ seed: 11 });
    for (const name of ['src', COPIES]) expect((await write('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
  });
  afterEach(async () => {
    await controller?.stop();
    controller = undefined;
    await api.close();
  });

  const write = (method: string, path: string, body?: unknown, contentType = 'application/json') =>
    request(api.url, path, { method, headers: { 'Content-Type': contentType, 'User-Agent': 'test-writer/1.0' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const createSource = async (namespace: string, name: string, data: Record<string, string>, mirror = true) =>
    expect((await write('POST', `/api/v1/namespaces/${namespace}/configmaps`, { metadata: { name, labels: mirror ? { mirror: 'yes' } : { mirror: 'no' } }, data })).status).toBe(201);

  /** What a converged controller leaves: one copy per labelled source, same data, and the source holds the finalizer. */
  const converged = (): boolean => {
    const sources = api.objects('configmaps').filter((o) => o.metadata.namespace !== COPIES && o.metadata.labels?.mirror === 'yes');
    const copies = new Map(api.objects('configmaps', COPIES).filter((o) => o.metadata.name !== 'kube-root-ca.crt').map((o) => [o.metadata.name, o]));
    return (
      controller!.idle() &&
      copies.size === sources.length &&
      sources.every((s) => {
        const copy = copies.get(s.metadata.name);
        return s.metadata.finalizers?.includes(FINALIZER) && copy?.metadata.annotations?.[SOURCE_ANNOTATION] === `${s.metadata.namespace}/${s.metadata.name}` && JSON.stringify(copy.data ?? {}) === JSON.stringify(s.data ?? {});
      })
    );
  };
  const copyData = () => Object.fromEntries(api.objects('configmaps', COPIES).filter((o) => o.metadata.name !== 'kube-root-ca.crt').map((o) => [o.metadata.name, o.data]));

  it('converges: every ConfigMap labelled mirror=yes has its copy in `copies`, changes follow, an unlabelled source loses its copy and finalizer', async () => {
    await createSource('src', 'alpha', { a: '1' });
    await createSource('default', 'beta', { b: '2', c: '3' });
    await createSource('src', 'plain', { p: '0' }, false);
    controller = await startMirrorController(api.kubeconfigPath);
    await createSource('src', 'gamma', { g: '7' });
    expect(await eventually(converged)).toBe(true);
    expect(copyData()).toEqual({ alpha: { a: '1' }, beta: { b: '2', c: '3' }, gamma: { g: '7' } });
    expect(api.objects('configmaps', 'src').map((o) => [o.metadata.name, o.metadata.finalizers])).toEqual([
      ['alpha', [FINALIZER]],
      ['gamma', [FINALIZER]],
      ['kube-root-ca.crt', undefined],
      ['plain', undefined],
    ]);

    expect((await write('PATCH', '/api/v1/namespaces/src/configmaps/alpha', { data: { a: '10', z: '26' } }, 'application/merge-patch+json')).status).toBe(200);
    expect((await write('PATCH', '/api/v1/namespaces/default/configmaps/beta', { metadata: { labels: { mirror: null } } }, 'application/merge-patch+json')).status).toBe(200);
    expect(await eventually(converged)).toBe(true);
    expect(copyData()).toEqual({ alpha: { a: '10', z: '26' }, gamma: { g: '7' } });
    expect(api.objects('configmaps', 'default').find((o) => o.metadata.name === 'beta')!.metadata.finalizers).toBeUndefined();
    expect(controller.stats.errors).toEqual([]);
  }, 30_000);

  it('retries its 409s while another client updates the sources in a loop, and converges to the last data', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `s${i}`);
    for (const name of names) await createSource('src', name, { v: '0' });
    // The writer: one loop per source, unconditional merge patches of its data for 1.5 s; the
    // controller starts while they run, so its finalizer updates and copy updates race them.
    const rounds = new Map(names.map((n) => [n, 0]));
    const end = Date.now() + 1500;
    const writer = Promise.all(names.map(async (name) => {
      while (Date.now() < end) {
        const v = rounds.get(name)! + 1;
        const r = await write('PATCH', `/api/v1/namespaces/src/configmaps/${name}`, { data: { v: String(v) } }, 'application/merge-patch+json');
        expect(r.status).toBe(200);
        rounds.set(name, v);
      }
    }));
    await sleep(200);
    controller = await startMirrorController(api.kubeconfigPath);
    await writer;
    expect(await eventually(converged)).toBe(true);
    expect(controller.stats.conflicts).toBeGreaterThanOrEqual(1);
    expect(controller.stats.errors).toEqual([]);
    expect(copyData()).toEqual(Object.fromEntries(names.map((n) => [n, { v: String(rounds.get(n)) }])));
    expect(api.objects('configmaps', 'src').filter((o) => o.metadata.name !== 'kube-root-ca.crt').every((o) => o.metadata.finalizers?.length === 1)).toBe(true);
  }, 30_000);

  it('cleans up when a source is deleted: the copy goes, then the source (a watch sees the DELETEDs in that order)', async () => {
    await createSource('src', 'keep', { k: '1' });
    await createSource('src', 'drop', { d: '1' });
    controller = await startMirrorController(api.kubeconfigPath);
    expect(await eventually(converged)).toBe(true);
    const w = watch(`${api.url}/api/v1/configmaps?watch=1&resourceVersion=${api.status().headResourceVersion}`);
    await sleep(50);
    const deleted = await write('DELETE', '/api/v1/namespaces/src/configmaps/drop');
    expect(deleted.status).toBe(200);
    expect(deleted.json.metadata.finalizers).toEqual([FINALIZER]);
    expect(await eventually(() => !api.objects('configmaps', 'src').some((o) => o.metadata.name === 'drop'))).toBe(true);
    expect(await eventually(converged)).toBe(true);
    expect(copyData()).toEqual({ keep: { k: '1' } });
    await w.waitFor(3);
    await sleep(100);
    const events = w.lines.map((l) => JSON.parse(l)).map((e) => [e.type, `${e.object.metadata.namespace}/${e.object.metadata.name}`, Number(e.object.metadata.resourceVersion)]);
    w.close();
    // The source marked (MODIFIED with deletionTimestamp), its copy DELETED, the finalizer removed (source DELETED).
    expect(events.map(([type, key]) => [type, key])).toEqual([
      ['MODIFIED', 'src/drop'],
      ['DELETED', 'copies/drop'],
      ['DELETED', 'src/drop'],
    ]);
    expect(events.map(([, , rv]) => rv)).toEqual([...events.map(([, , rv]) => rv)].sort((a, b) => a - b));
    expect(controller.stats.errors).toEqual([]);
  }, 30_000);
});
