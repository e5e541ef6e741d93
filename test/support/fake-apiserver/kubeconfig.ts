/** Kubeconfigs pointing at the fake, with the credential forms record mode must understand. */
import { writeFileSync } from 'node:fs';
import YAML from 'yaml';
import type { Pem } from './certs';

export interface KubeconfigOptions {
  /** Override the token written (null: none). Default: the server's first token. */
  token?: string | null;
  /** Write the token to this file and reference it as `tokenFile` instead of inline. */
  tokenFile?: string;
  /** true: issue a client certificate; or one issued earlier. */
  clientCert?: Pem | boolean;
  /** Reference CA/cert/key by file path instead of embedding `*-data`. */
  filePaths?: boolean;
  /** Context namespace. */
  namespace?: string;
  /** Names for cluster, user and context. Default `fake`. */
  name?: string;
  insecureSkipTlsVerify?: boolean;
}

export interface ResolvedKubeconfig extends Omit<KubeconfigOptions, 'clientCert'> {
  server: string;
  ca?: string;
  caPath?: string;
  clientCert?: Pem;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function writeFakeKubeconfig(path: string, o: ResolvedKubeconfig): string {
  const name = o.name ?? 'fake';
  const cluster: Record<string, unknown> = { server: o.server };
  // Plain http: say insecure-skip-tls-verify too, which kubectl ignores and @kubernetes/client-node 1.4 requires.
  if (o.insecureSkipTlsVerify || o.server.startsWith('http:')) cluster['insecure-skip-tls-verify'] = true;
  else if (o.ca) {
    if (o.filePaths) {
      const caPath = `${path}.ca.crt`;
      writeFileSync(caPath, o.ca);
      cluster['certificate-authority'] = caPath;
    } else cluster['certificate-authority-data'] = b64(o.ca);
  }
  const user: Record<string, unknown> = {};
  if (o.token) {
    if (o.tokenFile) {
      writeFileSync(o.tokenFile, o.token);
      user.tokenFile = o.tokenFile;
    } else user.token = o.token;
  }
  if (o.clientCert) {
    if (o.filePaths) {
      user['client-certificate'] = o.clientCert.certPath;
      user['client-key'] = o.clientCert.keyPath;
    } else {
      user['client-certificate-data'] = b64(o.clientCert.cert);
      user['client-key-data'] = b64(o.clientCert.key);
    }
  }
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name, user }],
    contexts: [{ name, context: { cluster: name, user: name, ...(o.namespace ? { namespace: o.namespace } : {}) } }],
    'current-context': name,
    preferences: {},
  };
  writeFileSync(path, YAML.stringify(config), { mode: 0o600 });
  return path;
}
