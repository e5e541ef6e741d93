import { writeFileSync } from 'node:fs';
import YAML from 'yaml';

/** Writes a kubeconfig whose current context points clients at `url` (kubetape needs no credentials). */
export function writeKubeconfig(path: string, url: string, name = 'kubetape'): void {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: url } }],
    users: [{ name, user: {} }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  };
  writeFileSync(path, YAML.stringify(config), { mode: 0o600 });
}
