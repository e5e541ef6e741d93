/**
 * `pods/NAME/log` through a real serve, as the apiserver answers it without kubelets: an empty log
 * for a Pod no node runs, the container checks, a bound Pod's missing node, and what kubectl prints.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { sendJson } from './invalid-status';

const PODS = '/api/v1/namespaces/default/pods';

describe('serve: pods/log', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 2 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-podlog-'));
    const pod = (name: string, containers: string[], extra: Record<string, unknown> = {}) =>
      sendJson(api.url, 'POST', PODS, { metadata: { name }, spec: { containers: containers.map((c) => ({ name: c, image: 'busybox' })), ...extra } });
    for (const r of await Promise.all([pod('single', ['app']), pod('pair', ['app', 'sidecar'], { initContainers: [{ name: 'setup', image: 'busybox' }] }), pod('bound', ['app'], { nodeName: 'node-1' })])) {
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a Pod no node runs has an empty log: 200 text/plain, and kubectl logs prints nothing', async () => {
    const r = await get(`${api.url}${PODS}/single/log`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain');
    expect(r.body.length).toBe(0);
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['logs', 'single']);
    expect(out).toMatchObject({ code: 0, stdout: '' });
  });

  it('a Pod of several containers needs one named; an unknown one is a 400', async () => {
    const unnamed = await sendJson(api.url, 'GET', `${PODS}/pair/log`, {});
    expect(unnamed.status).toBe(400);
    expect(unnamed.json.message).toBe('a container name must be specified for pod pair, choose one of: [app sidecar] or one of the init containers: [setup]');
    const unknown = await sendJson(api.url, 'GET', `${PODS}/pair/log?container=nope`, {});
    expect(unknown.json).toMatchObject({ code: 400, reason: 'BadRequest', message: 'container nope is not valid for pod pair' });
    expect((await get(`${api.url}${PODS}/pair/log?container=setup`)).status).toBe(200);
    const missing = await sendJson(api.url, 'GET', `${PODS}/gone/log`, {});
    expect(missing.json).toMatchObject({ code: 404, message: 'pods "gone" not found' });
  });

  it('a Pod bound to a node serve does not hold is that node’s 404; to a node it holds, the kubelet it cannot reach', async () => {
    const r = await sendJson(api.url, 'GET', `${PODS}/bound/log`, {});
    expect(r.json).toMatchObject({ code: 404, reason: 'NotFound', message: 'nodes "node-1" not found' });
    expect((await sendJson(api.url, 'POST', '/api/v1/nodes', { metadata: { name: 'node-1' } })).status).toBe(201);
    // What a kubelet reports of itself.
    const status = await sendJson(api.url, 'PATCH', '/api/v1/nodes/node-1/status', { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.7' }] } }, 'application/merge-patch+json');
    expect(status.status).toBe(200);
    const unreachable = await sendJson(api.url, 'GET', `${PODS}/bound/log`, {});
    expect(unreachable.status).toBe(500);
    expect(unreachable.json.message).toBe('Internal error occurred: Get "https://10.0.0.7:10250/containerLogs/default/bound/app": dial tcp 10.0.0.7:10250: connect: connection refused');
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['logs', 'bound']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('dial tcp 10.0.0.7:10250: connect: connection refused');
  });
});
