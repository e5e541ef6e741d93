import { writeFileSync } from 'node:fs';
import YAML from 'yaml';

/**
 * Writes a kubeconfig whose current context points clients at `url` in `namespace` (kubetape needs
 * no credentials).
 * `insecure-skip-tls-verify` is set because @kubernetes/client-node 1.4 refuses a plain-http server
 * without it; kubectl and the Python client ignore it for http.
 */
export function writeKubeconfig(path: string, url: string, namespace = 'default', name = 'kubetape'): void {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: url, 'insecure-skip-tls-verify': url.startsWith('http:') } }],
    users: [{ name, user: {} }],
    contexts: [{ name, context: { cluster: name, user: name, namespace } }],
    'current-context': name,
    preferences: {},
  };
  writeFileSync(path, YAML.stringify(config), { mode: 0o600 });
}
