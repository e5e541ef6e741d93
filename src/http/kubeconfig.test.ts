import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { kubectl } from '../../test/support/kube-clients';
import { writeKubeconfig } from './kubeconfig';

describe('writeKubeconfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubetape-kubeconfig-'));

  it('writes the kubeconfig a YAML reader reads back, readable by its owner only', () => {
    const path = join(dir, 'plain');
    writeKubeconfig(path, 'http://127.0.0.1:41234', 'team-a');
    expect(YAML.parse(readFileSync(path, 'utf8'))).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kubetape', cluster: { server: 'http://127.0.0.1:41234', 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'kubetape', user: {} }],
      contexts: [{ name: 'kubetape', context: { cluster: 'kubetape', user: 'kubetape', namespace: 'team-a' } }],
      'current-context': 'kubetape',
      preferences: {},
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toContain('\n      server: http://127.0.0.1:41234\n');
  });

  it('keeps names that YAML would read as other types, or that need quoting, as strings', () => {
    const path = join(dir, 'odd');
    for (const name of ['true', 'Yes', 'off', '123', '1e3', 'null', '~', 'a: b', 'a:', 'a:b', '#x', 'x #y', 'quote"back\\slash', 'ünïcode', '- dash', '\ttab\nline', '', ' lead', 'trail ', 'del\u007f', 'nel\u0085c1\u009f', 'ls\u2028ps\u2029']) {
      writeKubeconfig(path, 'https://[::1]:6443/', name, name);
      // YAML 1.2 (this library's default) and 1.1 (go-yaml's, which kubectl reads it with).
      for (const version of ['1.2', '1.1'] as const) {
        const doc = YAML.parse(readFileSync(path, 'utf8'), { version });
        expect(doc['current-context']).toBe(name);
        expect(doc.contexts[0].context).toEqual({ cluster: name, user: name, namespace: name });
        expect(doc.clusters[0].cluster).toEqual({ server: 'https://[::1]:6443/', 'insecure-skip-tls-verify': false });
      }
    }
  });

  it('is read back by kubectl (go-yaml), control characters and line separators included', async () => {
    for (const name of ['On', 'a: b', 'del\u007f', 'nel\u0085c1\u009f', 'ls\u2028ps\u2029']) {
      const path = join(dir, 'kubectl');
      writeKubeconfig(path, 'http://127.0.0.1:41234', name, name);
      const out = await kubectl(path, join(dir, 'cache'), ['config', 'view', '-o', 'jsonpath={.current-context}|{.contexts[0].context.namespace}']);
      expect(out.stderr).toBe('');
      expect(out.stdout).toBe(`${name}|${name}`);
    }
  });
});
