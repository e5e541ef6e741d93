/**
 * core/validation's rules on a Service's clusterIP, clusterIPs, ipFamilies and ipFamilyPolicy
 * (ValidateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs,
 * validateUpgradeDowngradeIPFamilies), and the registry's normalizeClusterIPs /
 * patchAllocatedValues that run before them. `spec` is the Service's spec. Pure.
 */
import { duplicateField, forbiddenField, goStringSlice, invalidField, notSupportedField, requiredField, type FieldError, type FieldValue } from './field-errors';
import { isIpv6String, isValidIp, parseIp } from './ip-address';

type Obj = Record<string, any>;

const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map((x) => String(x)) : undefined);
const list = (v: unknown): string[] => strings(v) ?? [];
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** %#v of a []string field: `[]string(nil)` when absent. */
export function goStrings(v: unknown, type = 'string'): { goSyntax: string } {
  const values = strings(v);
  if (values === undefined) return { goSyntax: `[]${type}(nil)` };
  return type === 'string' ? goStringSlice(values) : { goSyntax: `[]${type}{${values.map((x) => JSON.stringify(x)).join(', ')}}` };
}

/** A *string field as field.Error prints it: dereferenced, or a nil pointer as the string "null" (quoted, as v1.26's ErrorBody prints it). */
export function goStringPointer(v: unknown): FieldValue {
  return typeof v === 'string' ? v : 'null';
}

export function isHeadless(spec: Obj): boolean {
  const ips = list(spec.clusterIPs);
  return ips.length === 1 && ips[0] === 'None';
}

/** normalizeClusterIPs: keeps clusterIPs in step with clusterIP (`old`: the stored spec on update). */
export function normalizeClusterIPs(spec: Obj, old?: Obj): void {
  const ip = str(spec.clusterIP);
  const ips = list(spec.clusterIPs);
  if (!old) {
    if (ip && ips.length === 0) spec.clusterIPs = [ip];
    return;
  }
  const oldIp = str(old.clusterIP);
  if (list(old.clusterIPs).length > 0 && ips.length === 0 && oldIp === ip) spec.clusterIPs = old.clusterIPs;
  if (oldIp !== ip) {
    const same = sameStrings(old.clusterIPs, spec.clusterIPs);
    if (oldIp && !ip) {
      if (same) delete spec.clusterIPs;
    } else if (same) spec.clusterIPs = [ip];
  }
}

/** patchAllocatedValues, for the addresses: a client that leaves them out keeps the allocated ones. */
export function patchAllocatedValues(spec: Obj, old: Obj): void {
  const needsClusterIP = (s: Obj) => s.type !== 'ExternalName';
  const needsNodePort = (s: Obj) => s.type === 'NodePort' || s.type === 'LoadBalancer';
  const needsHealthCheck = (s: Obj) => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (!str(spec.clusterIP) && old.clusterIP !== undefined) spec.clusterIP = old.clusterIP;
    if (list(spec.clusterIPs).length === 0 && list(old.clusterIPs).length > 0) spec.clusterIPs = old.clusterIPs;
  }
  if (needsNodePort(old) && needsNodePort(spec)) {
    const used = (s: Obj) => new Set(ports(s).map((p) => p.nodePort).filter((n) => typeof n === 'number' && n !== 0));
    const newUsed = used(spec);
    const taken = new Set([...used(old)].filter((n) => newUsed.has(n)));
    const byName = new Map<string, number>();
    for (const p of ports(old)) byName.set(str(p.name), typeof p.nodePort === 'number' ? p.nodePort : 0);
    for (const p of ports(spec)) {
      if (p.nodePort === undefined || p.nodePort === 0) {
        const oldValue = byName.get(str(p.name)) ?? 0;
        if (!taken.has(oldValue) && oldValue !== 0) p.nodePort = oldValue;
      }
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) spec.healthCheckNodePort = old.healthCheckNodePort;
}

/** ValidateServiceClusterIPsRelatedFields. */
export function validateClusterIPsRelatedFields(spec: Obj): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ip = str(spec.clusterIP);
  const ips = list(spec.clusterIPs);
  const field = 'spec.clusterIPs';
  if (ip) {
    if (ips.length === 0) errs.push(requiredField(field, ''));
    else if (ips[0] !== ip) errs.push(invalidField(field, goStrings(spec.clusterIPs), 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(invalidField(field, goStrings(spec.clusterIPs), 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  list(spec.ipFamilies).forEach((family, i) => {
    if (!IP_FAMILIES.includes(family)) errs.push(notSupportedField(`spec.ipFamilies[${i}]`, family, IP_FAMILIES));
    if (seen.has(family)) errs.push(duplicateField(`spec.ipFamilies[${i}]`, family));
    seen.add(family);
  });
  if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    errs.push(notSupportedField('spec.ipFamilyPolicy', str(spec.ipFamilyPolicy), IP_FAMILY_POLICIES));
  }
  let invalidIps = false;
  ips.forEach((value, i) => {
    if (i === 0 && value === 'None') {
      if (ips.length > 1) {
        invalidIps = true;
        errs.push(invalidField(field, goStrings(spec.clusterIPs), "'None' must be the first and only value"));
      }
      return;
    }
    const msgs = isValidIp(value);
    if (msgs.length > 0) invalidIps = true;
    for (const msg of msgs) errs.push(invalidField(`${field}[${i}]`, value, msg));
  });
  if (ips.length > 2) errs.push(invalidField(field, goStrings(spec.clusterIPs), 'may only hold up to 2 values'));
  if (invalidIps) return errs;
  if (ips.length > 1) {
    const v6 = ips.filter(isIpv6String).length;
    if (ips.length !== 2 || v6 !== 1) errs.push(invalidField(field, goStrings(spec.clusterIPs), 'may specify no more than one IP for each IP family'));
  }
  const families = list(spec.ipFamilies);
  if (!isHeadless(spec) && ips.length > 0 && families.length > 0) {
    ips.forEach((value, i) => {
      if (i > families.length - 1) return;
      const v6 = parseIp(value) !== undefined && isIpv6String(value);
      if (families[i] === 'IPv4' && v6) errs.push(invalidField(`${field}[${i}]`, value, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !v6) errs.push(invalidField(`${field}[${i}]`, value, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: a clusterIP, once set, does not change. */
export function validateUpgradeDowngradeClusterIPs(old: Obj, spec: Obj): FieldError[] {
  if (spec.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(old) && isHeadless(spec)) return [];
  const errs: FieldError[] = [];
  const before = list(old.clusterIPs);
  const after = list(spec.clusterIPs);
  const value = goStrings(spec.clusterIPs);
  if (before.length === after.length) {
    before.forEach((ip, i) => {
      if (ip !== after[i]) errs.push(invalidField(`spec.clusterIPs[${i}]`, value, 'may not change once set'));
    });
  } else if (before.length > after.length) {
    if (after.length === 0) errs.push(invalidField('spec.clusterIPs[0]', value, 'primary clusterIP can not be unset'));
    if (before.length > 0 && after.length > 0 && after[0] !== before[0]) errs.push(invalidField('spec.clusterIPs[0]', value, 'may not change once set'));
    if (after.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalidField('spec.ipFamilyPolicy', goStringPointer(spec.ipFamilyPolicy), "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (before.length > 0 && after[0] !== before[0]) {
    errs.push(invalidField('spec.clusterIPs[0]', value, 'may not change once set'));
  }
  return errs;
}

/** validateUpgradeDowngradeIPFamilies: the primary family does not change (headless Services excepted). */
export function validateUpgradeDowngradeIPFamilies(old: Obj, spec: Obj): FieldError[] {
  if (spec.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(old) !== isHeadless(spec) || isHeadless(spec)) return [];
  const errs: FieldError[] = [];
  const before = list(old.ipFamilies);
  const after = list(spec.ipFamilies);
  const families = goStrings(spec.ipFamilies, 'core.IPFamily');
  const ips = goStrings(spec.clusterIPs);
  if (before.length === after.length) {
    before.forEach((family, i) => {
      if (family !== after[i]) errs.push(invalidField('spec.ipFamilies[0]', families, 'may not change once set'));
    });
  } else if (before.length > after.length) {
    if (list(spec.clusterIPs).length === 0) errs.push(invalidField('spec.ipFamilies[0]', families, 'primary ipFamily can not be unset'));
    if (after.length > 0 && after[0] !== before[0]) errs.push(invalidField('spec.ipFamilies[0]', ips, 'may not change once set'));
    if (after.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalidField('spec.ipFamilyPolicy', goStringPointer(spec.ipFamilyPolicy), "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (before.length > 0 && after.length > 0 && after[0] !== before[0]) {
    errs.push(invalidField('spec.ipFamilies[0]', ips, 'may not change once set'));
  }
  return errs;
}

/** The ExternalName case of ValidateService: no addresses, families or policy. */
export function validateExternalNameAddresses(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (list(spec.clusterIPs).length > 0) errs.push(forbiddenField('spec.clusterIPs', 'may not be set for ExternalName services'));
  if (list(spec.ipFamilies).length > 0) errs.push(forbiddenField('spec.ipFamilies', 'may not be set for ExternalName services'));
  if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) errs.push(forbiddenField('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
  return errs;
}

function ports(spec: Obj): Obj[] {
  return Array.isArray(spec.ports) ? spec.ports.filter((p: unknown) => p !== null && typeof p === 'object') : [];
}

function sameStrings(a: unknown, b: unknown): boolean {
  const x = list(a);
  const y = list(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
