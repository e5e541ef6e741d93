/**
 * Makes `recordings/examples/configmaps.db`: a real session recorded through `kubetape record`
 * against the fake apiserver — kubectl get (Table), get -o json, get --chunk-size=2, get -w while
 * ConfigMaps change, a protobuf list + watch as client-go sends them, and a delete.
 *
 *   npm run example-recording
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { record } from '../../src/record';
import { startFakeApiserver } from './fake-apiserver';

const PROTOBUF_ACCEPT = 'application/vnd.kubernetes.protobuf, application/json';

async function main(out: string): Promise<void> {
  rmSync(out, { force: true });
  for (const suffix of ['-wal', '-shm']) rmSync(out + suffix, { force: true });
  mkdirSync(join(out, '..'), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'kubetape-example-'));
  const upstream = await startFakeApiserver({});
  upstream.seedConfigMaps('demo', 6);
  const proxy = await record({ db: out, upstream: upstream.url, listen: '127.0.0.1:0', writeKubeconfig: join(work, 'kubeconfig') });
  const kubeconfig = join(work, 'kubeconfig');
  // Async: the proxy runs in this process, so a blocking exec would stall it.
  const kubectl = async (...args: string[]) =>
    (await promisify(execFile)('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(work, 'cache'), '-n', 'demo', ...args])).stdout;
  try {
    process.stdout.write(await kubectl('get', 'configmaps'));
    await kubectl('get', 'configmaps', '-o', 'json');
    await kubectl('get', 'configmaps', '--chunk-size=2');
    await watchWhile(kubeconfig, work, async () => {
      upstream.patchData('configmaps', 'demo', 'cm-02', { k: 'changed' });
      upstream.create('configmaps', 'demo', { metadata: { name: 'cm-07' }, data: { k: 'v07' } });
      upstream.delete('configmaps', 'demo', 'cm-03');
    });
    const list = await get(proxy.url, '/api/v1/namespaces/demo/configmaps', PROTOBUF_ACCEPT);
    await get(proxy.url, `/api/v1/namespaces/demo/configmaps?watch=true&resourceVersion=0&timeoutSeconds=1`, PROTOBUF_ACCEPT);
    process.stdout.write(`protobuf list: ${list.length} bytes\n`);
    await kubectl('get', 'configmaps', '-o', 'json');
  } finally {
    await proxy.close();
    await upstream.close();
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`wrote ${out}\n`);
}

/** `kubectl get -w` running while `changes` happen; stops after the changes have printed. */
function watchWhile(kubeconfig: string, work: string, changes: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(work, 'cache'), '-n', 'demo', 'get', 'configmaps', '-w']);
    let lines = 0;
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      lines += chunk.toString().split('\n').length - 1;
      if (!started && lines >= 7) {
        started = true;
        setTimeout(() => void changes(), 200);
      }
      if (lines >= 10) setTimeout(() => child.kill('SIGINT'), 300);
    });
    setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', () => resolve());
  });
}

function get(base: string, path: string, accept: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http.get(new URL(path, base), { headers: { Accept: accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

main(process.argv[2] ?? join(__dirname, '..', '..', '..', 'recordings', 'examples', 'configmaps.db')).catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
