/**
 * kubectl against a tiny server built from the facade pieces alone (Discovery, negotiate,
 * renderTable, writeBody): proves kubectl accepts the discovery documents and the Table.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { StatusError, resourceNotFound } from '../../src/k8s/status';
import { writeKubeconfig } from '../../src/http/kubeconfig';
import { Discovery, type KnownResource } from '../../src/serve/discovery';
import { negotiate } from '../../src/serve/negotiate';
import { renderTable } from '../../src/serve/table';
import { encodeJson, sendStatusBody, writeBody } from '../../src/serve/response-body';

const run = promisify(execFile);

const SEEN: KnownResource[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
  { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: false },
];

const CONFIGMAPS = [
  { metadata: { name: 'alpha', namespace: 'default', uid: 'u1', resourceVersion: '11', creationTimestamp: '2026-11-21T00:46:05Z' }, data: { k: 'v' } },
  { metadata: { name: 'beta', namespace: 'default', uid: 'u2', resourceVersion: '12', creationTimestamp: '2026-11-21T00:46:06Z' } },
];

let server: http.Server;
let dir: string;
let kubeconfig: string;
const seenAccept: Record<string, string | undefined> = {};

beforeAll(async () => {
  const discovery = new Discovery(SEEN);
  server = http.createServer((req, res) => {
    seenAccept[req.url!.split('?')[0]!] = req.headers.accept;
    if (discovery.handle(req, res)) return;
    try {
      if (req.url!.startsWith('/api/v1/namespaces/default/configmaps') && /[?&]watch=(true|1)/.test(req.url!)) {
        // two Table watch events, headers only on the first, as the apiserver sends them; then the stream ends
        const rep = negotiate(req.headers.accept, { target: 'watch', protobufAvailable: false });
        res.writeHead(200, { 'Content-Type': rep.contentType, 'Transfer-Encoding': 'chunked' });
        const gamma = { metadata: { name: 'gamma', namespace: 'default', uid: 'u3', resourceVersion: '13', creationTimestamp: '2026-11-21T00:47:00Z' } };
        [CONFIGMAPS[1]!, gamma].forEach((obj, i) => {
          const table = renderTable({ items: [obj], includeObject: 'Metadata', version: rep.asVersion!, listMeta: { resourceVersion: obj.metadata.resourceVersion }, noHeaders: i > 0 });
          res.write(JSON.stringify({ type: i === 0 ? 'MODIFIED' : 'ADDED', object: table }) + '\n');
        });
        res.end();
        return;
      }
      if (req.url!.startsWith('/api/v1/namespaces/default/configmaps')) {
        const rep = negotiate(req.headers.accept, { target: 'list', protobufAvailable: false });
        const listMeta = { resourceVersion: '12' };
        const body =
          rep.as === 'Table'
            ? renderTable({ items: CONFIGMAPS, includeObject: 'Metadata', version: rep.asVersion!, listMeta })
            : { kind: 'ConfigMapList', apiVersion: 'v1', metadata: listMeta, items: CONFIGMAPS };
        writeBody(req, res, 200, encodeJson(body), rep.contentType);
        return;
      }
      throw resourceNotFound();
    } catch (err) {
      if (err instanceof StatusError) sendStatusBody(req, res, err);
      else throw err;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  dir = mkdtempSync(path.join(tmpdir(), 'kubetape-facade-'));
  kubeconfig = path.join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function kubectl(...args: string[]) {
  return run('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache'), ...args], { timeout: 30_000 });
}

test('kubectl api-resources lists what serve knows, with built-in short names, via aggregated discovery', async () => {
  const { stdout } = await kubectl('api-resources');
  const rows = stdout.trim().split('\n').map((line) => line.trim().split(/\s+/));
  expect(rows[0]).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
  expect(rows).toContainEqual(['configmaps', 'cm', 'v1', 'true', 'ConfigMap']);
  expect(rows).toContainEqual(['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
  expect(rows).toContainEqual(['widgets', 'example.com/v1', 'false', 'Widget']);
  expect(rows).toHaveLength(4);
  expect(seenAccept['/api']).toContain('as=APIGroupDiscoveryList');
  // kubectl took the aggregated documents: it never fell back to per-group-version lists
  expect(Object.keys(seenAccept).filter((p) => p === '/api/v1' || p.startsWith('/apis/'))).toEqual([]);
});

test('kubectl get --raw /apis returns the APIGroupList', async () => {
  const { stdout } = await kubectl('get', '--raw', '/apis');
  const list = JSON.parse(stdout);
  expect(list.kind).toBe('APIGroupList');
  expect(list.groups.map((g: { name: string }) => g.name)).toEqual(['apps', 'example.com']);
  expect(list.groups[0].preferredVersion).toEqual({ groupVersion: 'apps/v1', version: 'v1' });
});

test('kubectl get cm resolves the short name and prints the default Table', async () => {
  const { stdout } = await kubectl('get', 'cm');
  const lines = stdout.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));
  expect(lines).toEqual([
    ['NAME', 'CREATED AT'],
    ['alpha', '2026-11-21T00:46:05Z'],
    ['beta', '2026-11-21T00:46:06Z'],
  ]);
  expect(seenAccept['/api/v1/namespaces/default/configmaps']).toContain('as=Table');
});

test('kubectl get cm -o name uses the plain list', async () => {
  const { stdout } = await kubectl('get', 'configmaps', '-o', 'name');
  expect(stdout.trim().split('\n')).toEqual(['configmap/alpha', 'configmap/beta']);
});

test('kubectl get -w prints Table watch events, the later ones sent without column definitions', async () => {
  const { stdout } = await kubectl('get', 'cm', '--watch');
  const lines = stdout.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));
  expect(lines).toEqual([
    ['NAME', 'CREATED AT'],
    ['alpha', '2026-11-21T00:46:05Z'],
    ['beta', '2026-11-21T00:46:06Z'],
    ['beta', '2026-11-21T00:46:06Z'],
    ['gamma', '2026-11-21T00:47:00Z'],
  ]);
});
