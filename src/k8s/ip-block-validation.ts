/**
 * networking/validation's ValidateIPBlock as kube-apiserver v1.26 runs it: `cidr` is a CIDR
 * (netutils.ParseCIDRSloppy, through core validation's ValidateCIDR), and each `except` is a CIDR
 * strictly inside it. Pure.
 */
import { invalidField, requiredField, type FieldError } from './field-errors';
import { parseIp } from './ip-address';

type Obj = Record<string, any>;

/** A parsed CIDR: its network address (4 bytes for IPv4, 16 for IPv6, host bits cleared) and prefix length. */
export interface Cidr {
  network: Uint8Array;
  prefix: number;
}

/**
 * netutils.ParseCIDRSloppy: `address/prefix`, IPv4 when the address has no colon (octets may have
 * leading zeros), a decimal prefix of at most the address's bits; undefined for an error.
 */
export function parseCidr(value: string): Cidr | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const address = value.slice(0, slash);
  const prefixText = value.slice(slash + 1);
  if (!/^\d+$/.test(prefixText)) return undefined;
  const ip = parseIp(address);
  if (!ip) return undefined;
  const bytes = address.includes(':') ? ip : ip.slice(12);
  const prefix = Number(prefixText);
  if (prefix > bytes.length * 8) return undefined;
  return { network: maskBytes(bytes, prefix), prefix };
}

/**
 * IPNet.Contains(ip) as Go computes it: an IPv4-mapped IPv6 address (the network's or `ip`) is
 * compared as its 4 IPv4 bytes, under the low 32 bits of the mask; other mixed families never match.
 */
function contains(net: Cidr, ip: Uint8Array): boolean {
  const network = to4(net.network) ?? net.network;
  const prefix = network.length < net.network.length ? Math.max(0, net.prefix - 96) : net.prefix;
  const addr = to4(ip) ?? ip;
  if (addr.length !== network.length) return false;
  const masked = maskBytes(addr, prefix);
  const own = maskBytes(network, prefix);
  return masked.every((b, i) => b === own[i]);
}

/** IP.To4 for a 16-byte address: its last 4 bytes when it is IPv4-mapped. */
function to4(ip: Uint8Array): Uint8Array | undefined {
  if (ip.length === 4) return ip;
  const mapped = ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
  return mapped ? ip.slice(12) : undefined;
}

function maskBytes(bytes: Uint8Array, prefix: number): Uint8Array {
  return bytes.map((b, i) => {
    const bits = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - bits)) & 0xff);
  });
}

/** ValidateIPBlock: a required, valid `cidr`; the first `except` that is no CIDR ends the checks. */
export function validateIpBlock(ipBlock: Obj, path: string): FieldError[] {
  const cidrText = typeof ipBlock.cidr === 'string' ? ipBlock.cidr : '';
  if (cidrText === '') return [requiredField(`${path}.cidr`, '')];
  const cidr = parseCidr(cidrText);
  if (!cidr) return [invalidField(`${path}.cidr`, cidrText, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  const excepts: unknown[] = Array.isArray(ipBlock.except) ? ipBlock.except : [];
  for (let i = 0; i < excepts.length; i++) {
    const text = typeof excepts[i] === 'string' ? (excepts[i] as string) : '';
    const except = parseCidr(text);
    if (!except) return [...errs, invalidField(`${path}.except[${i}]`, text, 'not a valid CIDR')];
    if (!contains(cidr, except.network) || cidr.prefix >= except.prefix) errs.push(invalidField(`${path}.except[${i}]`, text, 'must be a strict subset of `cidr`'));
  }
  return errs;
}
