/**
 * kubectl's waiting commands against serve: `delete --wait` of an object kept by a finalizer waits
 * until an update removes the finalizer; `wait --for=delete` returns when the object goes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from '../support/http-client';
import { sleep } from '../support/kube-clients';
import { send } from './write-transcripts';
import { writeCluster, type WriteCluster } from './write-cluster';

const CM = '/api/v1/namespaces/w/configmaps';

interface Running {
  /** Resolves with the exit code and output once kubectl exits. */
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  exited(): boolean;
  /** What kubectl printed to stderr so far (with -v=6: the requests it made). */
  stderr(): string;
}

describe('serve writes: kubectl delete --wait and wait --for=delete', () => {
  let c: WriteCluster;
  let dir: string;
  beforeEach(async () => {
    c = await writeCluster({ seed: 3 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-kubectl-wait-'));
  });
  afterEach(async () => {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (...args: string[]): Running => {
    const { KUBECONFIG: _ignored, ...env } = process.env;
    const child = spawn('/usr/bin/kubectl', ['--kubeconfig', c.api.kubeconfigPath, '--cache-dir', join(dir, 'cache'), '-n', 'w', ...args], { env });
    let stdout = '';
    let stderr = '';
    let exited = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('close', (code) => {
        exited = true;
        resolve({ code, stdout, stderr });
      }),
    );
    return { done, exited: () => exited, stderr: () => stderr };
  };
  const write = (method: string, path: string, body: string, ct = 'application/json') => send(c.api.url + path, method, { 'Content-Type': ct, 'User-Agent': 'probe/1.0' }, body);
  const status = async (name: string) => (await get(`${c.api.url}${CM}/${name}`)).status;
  /** Resolves once kubectl (run with -v=6) has its watch open: what follows is a change it must see. */
  const watching = async (run: Running) => {
    for (let i = 0; i < 1000 && !/GET \S+watch=true\S* 200 OK/.test(run.stderr()); i++) await sleep(20);
    expect(run.stderr()).toMatch(/GET \S+watch=true\S* 200 OK/);
  };

  it('kubectl delete --wait of an object with a finalizer returns only after an update removes the finalizer', async () => {
    expect((await write('POST', CM, '{"metadata":{"name":"held","finalizers":["example.com/hold"]},"data":{"k":"v"}}')).status).toBe(201);
    const del = start('delete', 'configmap', 'held', '--wait', '--timeout=20s', '-v=6');
    await watching(del);
    // The object is marked, not gone; kubectl keeps waiting.
    const marked = (await get(`${c.api.url}${CM}/held`)).json;
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.metadata.finalizers).toEqual(['example.com/hold']);
    await sleep(500);
    expect(del.exited()).toBe(false);
    expect((await write('PATCH', `${CM}/held`, '{"metadata":{"finalizers":null}}', 'application/merge-patch+json')).status).toBe(200);
    const r = await del.done;
    expect([r.code, r.stdout]).toEqual([0, 'configmap "held" deleted\n']);
    expect(await status('held')).toBe(404);
  }, 30_000);

  it('kubectl wait --for=delete returns when the object goes (after its finalizer is removed), and times out while it stays', async () => {
    expect((await write('POST', CM, '{"metadata":{"name":"gone","finalizers":["example.com/hold"]}}')).status).toBe(201);
    expect((await write('POST', CM, '{"metadata":{"name":"stays"}}')).status).toBe(201);
    const waiting = start('wait', '--for=delete', 'configmap/gone', '--timeout=20s', '-v=6');
    const timesOut = start('wait', '--for=delete', 'configmap/stays', '--timeout=2s');
    await watching(waiting);
    expect((await write('DELETE', `${CM}/gone`, '')).status).toBe(200);
    await sleep(500);
    expect(waiting.exited()).toBe(false);
    expect((await write('PATCH', `${CM}/gone`, '[{"op":"remove","path":"/metadata/finalizers"}]', 'application/json-patch+json')).status).toBe(200);
    const r = await waiting.done;
    expect([r.code, r.stdout]).toEqual([0, 'configmap/gone condition met\n']);
    const t = await timesOut.done;
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/timed out waiting for the condition on configmaps\/stays/);
    expect(await status('stays')).toBe(200);
  }, 30_000);

  it('kubectl wait --for=delete of an object already gone returns at once', async () => {
    const r = await start('wait', '--for=delete', 'configmap/never', '--timeout=5s').done;
    expect(r.code).toBe(0);
  }, 30_000);
});
