/**
 * The health endpoints of an empty serve as a healthy kube-apiserver v1.26 answers them
 * (k8s.io/apiserver v0.26.0 pkg/server/healthz handleRootHealth / adaptCheckToHandler): `ok`,
 * the verbose per-check list, `exclude`, and one path per check.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

const HOOKS = [
  'start-kube-apiserver-admission-initializer', 'generic-apiserver-start-informers', 'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter', 'storage-object-count-tracker-hook', 'start-apiextensions-informers', 'start-apiextensions-controllers',
  'crd-informer-synced', 'bootstrap-controller', 'rbac/bootstrap-roles', 'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer', 'start-cluster-authentication-info-controller', 'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector', 'aggregator-reload-proxy-client-cert', 'start-kube-aggregator-informers',
  'apiservice-registration-controller', 'apiservice-status-available-controller', 'kube-apiserver-autoregistration',
].map((h) => `[+]poststarthook/${h} ok`);
const TAIL = ['[+]autoregister-completion ok', '[+]poststarthook/apiservice-openapi-controller ok', '[+]poststarthook/apiservice-openapiv3-controller ok'];
const LIVEZ = ['[+]ping ok', '[+]log ok', '[+]etcd ok', ...HOOKS, ...TAIL, 'livez check passed', ''].join('\n');
const READYZ = ['[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]etcd-readiness ok', '[+]informer-sync ok', ...HOOKS, ...TAIL, '[+]shutdown ok', 'readyz check passed', ''].join('\n');

describe('health endpoints', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-health-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('`ok` without verbose; kubectl get --raw /livez?verbose and /readyz?verbose list every check', async () => {
    for (const path of ['/healthz', '/livez', '/readyz']) {
      const r = await get(`${api.url}${path}`);
      expect([r.status, r.text, r.headers['cache-control'], r.headers['content-type'], r.headers['x-content-type-options']]).toEqual([200, 'ok', 'no-cache, private', 'text/plain; charset=utf-8', 'nosniff']);
    }
    const livez = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['get', '--raw', '/livez?verbose']);
    expect(livez.stdout).toBe(LIVEZ);
    const readyz = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['get', '--raw', '/readyz?verbose']);
    expect(readyz.stdout).toBe(READYZ);
    expect((await get(`${api.url}/healthz?verbose`)).text).toBe(LIVEZ.replace('livez check passed', 'healthz check passed'));
  });

  test('?exclude= marks the check excluded and warns about names that match none', async () => {
    const r = await get(`${api.url}/readyz?verbose&exclude=etcd&exclude=nope&exclude=poststarthook/rbac/bootstrap-roles&exclude=another`);
    expect(r.text).toBe(
      READYZ.replace('[+]etcd ok', '[+]etcd excluded: ok')
        .replace('[+]poststarthook/rbac/bootstrap-roles ok', '[+]poststarthook/rbac/bootstrap-roles excluded: ok')
        .replace('readyz check passed', 'warn: some health checks cannot be excluded: no matches for "another","nope"\nreadyz check passed'),
    );
    expect((await get(`${api.url}/livez?exclude=etcd`)).text).toBe('ok');
  });

  test('one path per check answers ok; a check an endpoint does not have is not found', async () => {
    for (const path of ['/livez/ping', '/readyz/ping', '/readyz/informer-sync', '/livez/etcd', '/readyz/poststarthook/rbac/bootstrap-roles', '/healthz/log', '/readyz/shutdown']) {
      const r = await get(`${api.url}${path}`);
      expect([path, r.status, r.text, r.headers['cache-control'], r.headers['content-type']]).toEqual([path, 200, 'ok', 'no-cache, private', 'text/plain; charset=utf-8']);
    }
    expect((await get(`${api.url}/livez/informer-sync`)).status).toBe(404);
    expect((await get(`${api.url}/livez/nope`)).status).toBe(404);
    for (const path of ['/constructor', '/toString', '/readyz/constructor']) expect([path, (await get(`${api.url}${path}`)).status]).toEqual([path, 404]);
  });
});
