/** A throwaway CA, a server certificate for 127.0.0.1/localhost and client certificates, made with `openssl`. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Pem {
  cert: string;
  key: string;
  certPath: string;
  keyPath: string;
}

export class TestCA {
  readonly dir: string;
  readonly ca: Pem;
  private serial = 1;

  constructor(dir = mkdtempSync(join(tmpdir(), 'fake-apiserver-pki-'))) {
    this.dir = dir;
    const keyPath = join(dir, 'ca.key');
    const certPath = join(dir, 'ca.crt');
    openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', keyPath]);
    openssl(['req', '-x509', '-new', '-key', keyPath, '-sha256', '-days', '2', '-subj', '/CN=fake-apiserver-ca', '-out', certPath]);
    this.ca = read(certPath, keyPath);
  }

  /** A leaf certificate signed by the CA; `server` adds the SANs a client dialing 127.0.0.1/localhost checks. */
  issue(name: string, cn: string, opts: { server?: boolean; organization?: string } = {}): Pem {
    const keyPath = join(this.dir, `${name}.key`);
    const csrPath = join(this.dir, `${name}.csr`);
    const certPath = join(this.dir, `${name}.crt`);
    const extPath = join(this.dir, `${name}.ext`);
    openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', keyPath]);
    const subject = `${opts.organization ? `/O=${opts.organization}` : ''}/CN=${cn}`;
    openssl(['req', '-new', '-key', keyPath, '-subj', subject, '-out', csrPath]);
    const ext = opts.server
      ? 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n'
      : 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n';
    writeFileSync(extPath, ext);
    openssl([
      'x509', '-req', '-in', csrPath, '-CA', this.ca.certPath, '-CAkey', this.ca.keyPath, '-set_serial', String(++this.serial),
      '-days', '2', '-sha256', '-extfile', extPath, '-out', certPath,
    ]);
    return read(certPath, keyPath);
  }
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function read(certPath: string, keyPath: string): Pem {
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath, keyPath };
}
