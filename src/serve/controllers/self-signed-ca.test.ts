import { X509Certificate, randomBytes } from 'node:crypto';
import { selfSignedCaPem } from './self-signed-ca';
import { clusterCaPem } from '.';

describe('selfSignedCaPem', () => {
  it('is a CA certificate for kubernetes that verifies with its own key', () => {
    const now = Date.parse('2026-11-24T05:23:23Z');
    const cert = new X509Certificate(selfSignedCaPem(now, 0x7fabcdef, randomBytes(32)));
    expect(cert.subject).toBe('CN=kubernetes');
    expect(cert.issuer).toBe('CN=kubernetes');
    expect(cert.ca).toBe(true);
    expect(cert.serialNumber.toUpperCase()).toBe('7FABCDEF');
    expect(new Date(cert.validFrom).toISOString()).toBe('2026-11-24T05:23:23.000Z');
    expect(Date.parse(cert.validTo) - now).toBe(10 * 365 * 24 * 3600 * 1000);
    expect(cert.publicKey.asymmetricKeyType).toBe('ed25519');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkIssued(cert)).toBe(true);
  });
});

describe('clusterCaPem', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('is the same certificate for the same seed and time, another for another seed', () => {
    const a = clusterCaPem(now, 7);
    expect(clusterCaPem(now, 7)).toBe(a);
    expect(clusterCaPem(now, 8)).not.toBe(a);
    expect(new X509Certificate(a).verify(new X509Certificate(a).publicKey)).toBe(true);
  });

  it('differs from one serve to the next without a seed', () => {
    expect(clusterCaPem(now)).not.toBe(clusterCaPem(now));
  });
});
