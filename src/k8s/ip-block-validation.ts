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

/** IPNet.Contains(ip) for a network address of the same family. */
function contains(net: Cidr, ip: Uint8Array): boolean {
  if (ip.length !== net.network.length) return false;
  const masked = maskBytes(ip, net.prefix);
  return masked.every((b, i) => b === net.network[i]);
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
