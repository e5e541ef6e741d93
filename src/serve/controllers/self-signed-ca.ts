/**
 * The CA serve publishes in `kube-root-ca.crt` while it serves plain HTTP: a self-signed X.509
 * v3 CA certificate (CN `kubernetes`, as kubeadm names its CA; ten years; basicConstraints CA,
 * keyUsage digitalSignature/keyEncipherment/keyCertSign, subjectKeyIdentifier), made once per
 * serve with node:crypto: an Ed25519 key from 32 given bytes (its signatures are deterministic,
 * so the same bytes, time and serial give the same certificate; RSA keys take tens of
 * milliseconds to generate) and a DER encoding of the few ASN.1 types a certificate needs.
 */
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

const OID = {
  ed25519: '1.3.101.112',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectKeyIdentifier: '2.5.29.14',
};

/** A PEM certificate; `now` (ms) starts its validity, `serial` (1–2^31) numbers it, `keySeed` (32 bytes) is its Ed25519 private key. */
export function selfSignedCaPem(now: number, serial: number, keySeed: Buffer): string {
  if (keySeed.length !== 32) throw new Error(`an Ed25519 key takes 32 bytes, not ${keySeed.length}`);
  // PKCS#8 of an Ed25519 key (RFC 8410): the fixed header, then the 32 bytes.
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), keySeed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const rawKey = spkiKeyBits(spki);
  const algorithm = seq(oid(OID.ed25519));
  const name = seq(set(seq(oid(OID.commonName), utf8('kubernetes'))));
  const extensions = seq(
    seq(oid(OID.basicConstraints), bool(true), octets(seq(bool(true)))),
    // keyUsage bits 0 (digitalSignature), 2 (keyEncipherment), 5 (keyCertSign): 1010 0100, 2 unused bits.
    seq(oid(OID.keyUsage), bool(true), octets(bitString(Buffer.from([0xa4]), 2))),
    seq(oid(OID.subjectKeyIdentifier), octets(octets(createHash('sha1').update(rawKey).digest()))),
  );
  const tbs = seq(
    tagged(0xa0, integer(2)),
    integer(serial),
    algorithm,
    name,
    seq(utcTime(now), utcTime(now + TEN_YEARS_MS)),
    name,
    spki,
    tagged(0xa3, extensions),
  );
  const signature = sign(null, tbs, privateKey);
  const der = seq(tbs, algorithm, bitString(signature, 0));
  const lines = der.toString('base64').match(/.{1,64}/g)!;
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function tlv(tag: number, body: Buffer): Buffer {
  const n = body.length;
  let len: Buffer;
  if (n < 0x80) len = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, body]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const tagged = (tag: number, inner: Buffer) => tlv(tag, inner);
const octets = (b: Buffer) => tlv(0x04, b);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const bitString = (b: Buffer, unused: number) => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]));

function integer(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  if (bytes.length === 0 || bytes[0]! & 0x80) bytes.unshift(0);
  return tlv(0x02, Buffer.from(bytes));
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [parts[0]! * 40 + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk = [part & 0x7f];
    for (let v = part >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(ms: number): Buffer {
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString(); // 2026-11-24T05:23:23.000Z
  const text = iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19) + 'Z';
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

/** The public key bits of a SubjectPublicKeyInfo (what the key identifier hashes). */
function spkiKeyBits(spki: Buffer): Buffer {
  // SEQUENCE { SEQUENCE algorithm, BIT STRING key }: skip the outer header and the algorithm.
  let at = 2 + (spki[1]! & 0x80 ? spki[1]! & 0x7f : 0);
  at += 2 + spki[at + 1]!;
  const len = spki[at + 1]!;
  return spki.subarray(at + 3, at + 2 + len);
}
