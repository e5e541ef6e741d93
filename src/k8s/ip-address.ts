/**
 * IP addresses and CIDRs as the apiserver's validation reads them (k8s.io/utils/net
 * ParseIPSloppy / ParseCIDRSloppy: IPv4 octets may have leading zeros) and the apimachinery
 * messages about them (IsValidIP, core/validation ValidateNonSpecialIP). Pure.
 */
import { invalidField, type FieldError } from './field-errors';

export const VALID_IP_MESSAGE = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** The 16 bytes of an address (IPv4 as ::ffff:a.b.c.d), or undefined when Go's ParseIPSloppy says nil. */
export function parseIp(value: string): Uint8Array | undefined {
  const v4 = parseIpv4(value);
  if (v4) return Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  return value.includes(':') ? parseIpv6(value) : undefined;
}

/** Whether `value` is an IPv6 address (Go: To4() == nil); false for IPv4 and for garbage. */
export function isIpv6String(value: string): boolean {
  const ip = parseIp(value);
  return ip !== undefined && !isV4Mapped(ip);
}

/** validation.IsValidIP. */
export function isValidIp(value: string): string[] {
  return parseIp(value) ? [] : [VALID_IP_MESSAGE];
}

/** Whether `value` parses as `address/prefix` with a prefix that fits the family. */
export function isCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const address = value.slice(0, slash);
  const prefix = value.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return false;
  const v4 = parseIpv4(address);
  if (v4) return Number(prefix) <= 32;
  return address.includes(':') && parseIpv6(address) !== undefined && Number(prefix) <= 128;
}

/** core/validation ValidateNonSpecialIP: not unspecified, loopback or link-local. */
export function validateNonSpecialIp(value: string, field: string): FieldError[] {
  const ip = parseIp(value);
  if (!ip) return [invalidField(field, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const v4 = isV4Mapped(ip);
  const b = ip;
  const unspecified = v4 ? b[12] === 0 && b[13] === 0 && b[14] === 0 && b[15] === 0 : b.every((x) => x === 0);
  const loopback = v4 ? b[12] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  const linkLocalUnicast = v4 ? b[12] === 169 && b[13] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
  const linkLocalMulticast = v4 ? b[12] === 224 && b[13] === 0 && b[14] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
  if (unspecified) errs.push(invalidField(field, value, `may not be unspecified (${value})`));
  if (loopback) errs.push(invalidField(field, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocalUnicast) errs.push(invalidField(field, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (linkLocalMulticast) errs.push(invalidField(field, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function isV4Mapped(ip: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (ip[i] !== 0) return false;
  return ip[10] === 0xff && ip[11] === 0xff;
}

function parseIpv4(value: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

function parseIpv6(value: string): Uint8Array | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(value)) return undefined;
  const halves = value.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(parseInt(p, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}
