import { X509Certificate } from 'node:crypto';
import { selfSignedCaPem } from './self-signed-ca';

describe('selfSignedCaPem', () => {
  it('is a CA certificate for kubernetes that verifies with its own key', () => {
    const now = Date.parse('2026-11-24T05:23:23Z');
    const cert = new X509Certificate(selfSignedCaPem(now, 0x7fabcdef));
    expect(cert.subject).toBe('CN=kubernetes');
    expect(cert.issuer).toBe('CN=kubernetes');
    expect(cert.ca).toBe(true);
    expect(cert.serialNumber.toUpperCase()).toBe('7FABCDEF');
    expect(new Date(cert.validFrom).toISOString()).toBe('2026-11-24T05:23:23.000Z');
    expect(Date.parse(cert.validTo) - now).toBe(10 * 365 * 24 * 3600 * 1000);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkIssued(cert)).toBe(true);
  });
});
