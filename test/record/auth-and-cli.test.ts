/**
 * Upstream credentials from kubeconfigs (CA, token, kubectl's tokenFile, client certificate, exec
 * plugin, insecure-skip-tls-verify only where said), and the CLI's one-line errors with exit 2.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import YAML from 'yaml';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { httpRequest } from '../support/http-client';
import { record } from '../../src/record';
import { UsageError } from '../../src/errors/usage-error';
import { cli, kubectl, rows, tempDir } from './support';

const tmp = tempDir();
let api: FakeApiserver;
beforeAll(async () => {
  api = await startFakeApiserver({ tls: true, token: ['s3cret', 'from-exec-plugin', 'from-token-file'], clientCA: true });
});
afterAll(async () => {
  await api.close();
  tmp.remove();
});

/** Records one GET /api/v1/namespaces through a proxy built from `kubeconfig`; returns what the upstream saw and answered. */
async function through(kubeconfig: string, name: string) {
  const db = tmp.path(`${name}.db`);
  const proxy = await record({ db, kubeconfig, listen: '127.0.0.1:0' });
  try {
    const before = api.requests.length;
    const res = await httpRequest(`${proxy.url}/api/v1/namespaces`, { headers: { Authorization: 'Bearer the-clients-own' } });
    return { status: res.status, body: res.body.toString(), seen: api.requests.slice(before).at(-1), db };
  } finally {
    await proxy.close();
  }
}

test('CA + token: kubectl through record gets the upstream\'s answer; the upstream sees the kubeconfig\'s token, not the client\'s', async () => {
  const proxyKubeconfig = tmp.path('proxy.kubeconfig');
  const db = tmp.path('kubectl.db');
  const proxy = await record({ db, kubeconfig: api.kubeconfigPath, listen: '127.0.0.1:0', writeKubeconfig: proxyKubeconfig });
  try {
    const direct = await kubectl(api.kubeconfigPath, tmp.path('cache'), ['get', 'namespaces', '-o', 'name']);
    const proxied = await kubectl(proxyKubeconfig, tmp.path('cache'), ['get', 'namespaces', '-o', 'name']);
    expect(proxied).toEqual(direct);
    expect(proxied.stdout).toContain('namespace/default');
    expect(api.requests.at(-1)!.headers.authorization).toBe('Bearer s3cret');
  } finally {
    await proxy.close();
  }
  const r = await through(api.kubeconfigPath, 'token');
  expect(r.status).toBe(200);
  expect(r.seen!.headers.authorization).toBe('Bearer s3cret');
});

test('kubectl\'s tokenFile, a client certificate, an exec credential plugin', async () => {
  const tokenFile = api.writeKubeconfig(tmp.path('tf.kubeconfig'), { token: 'from-token-file', tokenFile: tmp.path('token') });
  const viaFile = await through(tokenFile, 'tokenfile');
  expect(viaFile.status).toBe(200);
  expect(viaFile.seen!.headers.authorization).toBe('Bearer from-token-file');

  const cert = api.writeKubeconfig(tmp.path('cert.kubeconfig'), { token: null, clientCert: api.issueClientCert('alice', 'team'), filePaths: true });
  const viaCert = await through(cert, 'cert');
  expect(viaCert.status).toBe(200);
  expect(viaCert.seen!.clientCN).toBe('alice');
  expect(viaCert.seen!.headers.authorization).toBeUndefined(); // the client's own was dropped

  const plugin = tmp.path('credential-plugin.sh');
  writeFileSync(plugin, '#!/bin/sh\necho \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-exec-plugin"}}\'\n');
  chmodSync(plugin, 0o755);
  const execConfig = YAML.parse(require('node:fs').readFileSync(api.writeKubeconfig(tmp.path('exec.kubeconfig'), { token: null }), 'utf8'));
  execConfig.users[0].user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' } };
  writeFileSync(tmp.path('exec.kubeconfig'), YAML.stringify(execConfig));
  const viaExec = await through(tmp.path('exec.kubeconfig'), 'exec');
  expect(viaExec.status).toBe(200);
  expect(viaExec.seen!.headers.authorization).toBe('Bearer from-exec-plugin');
});

test('TLS verification is skipped only where the kubeconfig says insecure-skip-tls-verify', async () => {
  const noCa = YAML.parse(require('node:fs').readFileSync(api.kubeconfigPath, 'utf8'));
  delete noCa.clusters[0].cluster['certificate-authority-data'];
  writeFileSync(tmp.path('noca.kubeconfig'), YAML.stringify(noCa));
  const refused = await through(tmp.path('noca.kubeconfig'), 'noca');
  expect(refused.status).toBe(503);
  expect(JSON.parse(refused.body).message).toMatch(/certificate/i);
  expect(rows<any>(refused.db, 'SELECT status, outcome FROM exchanges')).toEqual([{ status: 503, outcome: 'error' }]);

  noCa.clusters[0].cluster['insecure-skip-tls-verify'] = true;
  writeFileSync(tmp.path('skip.kubeconfig'), YAML.stringify(noCa));
  expect((await through(tmp.path('skip.kubeconfig'), 'skip')).status).toBe(200);
});

test('a wrong kubeconfig or context: UsageError from the library, one line and exit 2 from the CLI', async () => {
  await expect(record({ db: tmp.path('x.db'), kubeconfig: tmp.path('missing'), listen: '127.0.0.1:0' })).rejects.toThrow(UsageError);
  await expect(record({ db: tmp.path('x.db'), kubeconfig: api.kubeconfigPath, context: 'nope', listen: '127.0.0.1:0' })).rejects.toThrow('no context "nope"');
  writeFileSync(tmp.path('garbage.kubeconfig'), 'clusters: [ this is : not yaml');
  const cases: Array<[string[], RegExp]> = [
    [['--kubeconfig', tmp.path('missing')], /^kubetape: kubeconfig .*missing: no such file$/],
    [['--kubeconfig', api.kubeconfigPath, '--context', 'nope'], /^kubetape: kubeconfig .*: no context "nope"$/],
    [['--kubeconfig', tmp.path('garbage.kubeconfig')], /^kubetape: kubeconfig .*garbage\.kubeconfig: /],
    [['--upstream', 'ftp://example'], /^kubetape: --upstream: expected an http\(s\) URL/],
  ];
  for (const [args, message] of cases) {
    const r = await cli(['record', '--db', tmp.path('cli.db'), '--listen', '127.0.0.1:0', ...args]);
    expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(message);
  }
  const both = await cli(['record', '--db', tmp.path('cli.db'), '--upstream', api.url, '--kubeconfig', api.kubeconfigPath]);
  expect(both.code).toBe(2);
  // A bad --listen is found before anything starts: no recording file is made.
  const badListen = await cli(['record', '--db', tmp.path('never.db'), '--upstream', api.url, '--listen', '127.0.0.1:99999']);
  expect([badListen.code, badListen.stderr]).toEqual([2, 'kubetape: --listen: port 99999 is out of range\n']);
  expect(existsSync(tmp.path('never.db'))).toBe(false);
});

test('a file that is not a kubetape recording: one line, exit 2 (record and inspect)', async () => {
  writeFileSync(tmp.path('notes.txt'), 'just some text, not SQLite at all\n'.repeat(200));
  for (const command of [['record', '--upstream', api.url, '--listen', '127.0.0.1:0'], ['inspect']]) {
    const r = await cli([...command, '--db', tmp.path('notes.txt')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^kubetape: .*notes\.txt: not a kubetape recording/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }
  const other = new (require('better-sqlite3'))(tmp.path('other.sqlite'));
  other.exec('CREATE TABLE t (x)');
  other.close();
  const r = await cli(['inspect', '--db', tmp.path('other.sqlite')]);
  expect(r.code).toBe(2);
  expect(r.stderr.trim()).toMatch(/not a kubetape recording \(unknown SQLite database\)$/);
});
