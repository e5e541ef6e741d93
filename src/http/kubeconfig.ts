import { writeFileSync } from 'node:fs';

/**
 * Writes a kubeconfig whose current context points clients at `url` in `namespace` (kubetape needs
 * no credentials). The YAML is written here, without a YAML library: its shape is fixed, and a
 * string that could read as anything else is written double-quoted (a JSON string is a YAML
 * double-quoted scalar).
 * `insecure-skip-tls-verify` is set because @kubernetes/client-node 1.4 refuses a plain-http server
 * without it; kubectl and the Python client ignore it for http.
 */
export function writeKubeconfig(path: string, url: string, namespace = 'default', name = 'kubetape'): void {
  const q = scalar;
  const text = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `  - name: ${q(name)}`,
    '    cluster:',
    `      server: ${q(url)}`,
    `      insecure-skip-tls-verify: ${url.startsWith('http:')}`,
    'users:',
    `  - name: ${q(name)}`,
    '    user: {}',
    'contexts:',
    `  - name: ${q(name)}`,
    '    context:',
    `      cluster: ${q(name)}`,
    `      user: ${q(name)}`,
    `      namespace: ${q(namespace)}`,
    `current-context: ${q(name)}`,
    'preferences: {}',
    '',
  ].join('\n');
  writeFileSync(path, text, { mode: 0o600 });
}

/** YAML 1.1 words a plain scalar would read as a boolean or null. */
const YAML_WORDS = /^(?:y|n|yes|no|true|false|on|off|null|~)$/i;

/** `text` as a YAML scalar: plain when it is a name or URL that reads back as the same string, else quoted. */
function scalar(text: string): string {
  const plain = /^[A-Za-z_][\w.\/-]*(?::[\w.\/-]+)*$/.test(text) && !YAML_WORDS.test(text);
  // JSON leaves DEL, the C1 controls and the line separators as they are; YAML refuses or folds them.
  return plain ? text : JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
