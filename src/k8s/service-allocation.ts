/**
 * Service addresses as the apiserver's allocators hand them out: a cluster IP from the service
 * CIDR 10.0.0.0/24 (10.0.0.1 is the `kubernetes` Service's), node ports from 30000-32767, never
 * one in use; an explicitly requested one that is taken, or a node port outside the range, is
 * the apiserver's 422. Pure (the addresses in use and the random source are given).
 */
import { invalidField, type FieldError } from './field-errors';
import type { Random } from './names';
import { invalidObject } from './write-status';

type Obj = Record<string, any>;

export interface ServiceAllocations {
  clusterIPs: Set<string>;
  nodePorts: Set<number>;
}

const PREFIX = '10.0.0.';
const FIRST_HOST = 1;
const LAST_HOST = 254;
export const NODE_PORT_RANGE = [30000, 32767] as const;

/** Fills in clusterIP(s), IP families, node ports and the health-check node port a Service spec lacks, and records them as used (`used`: the others' addresses). */
export function allocateService(spec: Obj, used: ServiceAllocations, random: Random, name: string): void {
  const errors: FieldError[] = [];
  if (spec.type !== 'ExternalName') {
    if (spec.clusterIP === undefined || spec.clusterIP === '') {
      const given = Array.isArray(spec.clusterIPs) && typeof spec.clusterIPs[0] === 'string' ? spec.clusterIPs[0] : undefined;
      spec.clusterIP = given ?? pick(random, LAST_HOST - FIRST_HOST + 1, (i) => `${PREFIX}${FIRST_HOST + i}`, (ip) => used.clusterIPs.has(ip));
      if (spec.clusterIP === undefined) errors.push(invalidField('spec.clusterIPs', undefined, 'range is full'));
    } else if (spec.clusterIP !== 'None' && used.clusterIPs.has(spec.clusterIP)) {
      errors.push(invalidField('spec.clusterIPs', { goSyntax: `[]string{${JSON.stringify(spec.clusterIP)}}` }, `failed to allocate IP ${spec.clusterIP}: provided IP is already allocated`));
    }
    if (spec.clusterIP !== undefined) {
      spec.clusterIPs ??= [spec.clusterIP];
      used.clusterIPs.add(spec.clusterIP);
      spec.ipFamilies ??= ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
    }
  }
  if (spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false)) {
    const [low, high] = NODE_PORT_RANGE;
    (Array.isArray(spec.ports) ? spec.ports : []).forEach((p: Obj, i: number) => {
      if (!p || typeof p !== 'object') return;
      if (p.nodePort === undefined || p.nodePort === 0) {
        p.nodePort = pick(random, high - low + 1, (k) => low + k, (port) => used.nodePorts.has(port));
      } else if (p.nodePort < low || p.nodePort > high) {
        errors.push(invalidField(`spec.ports[${i}].nodePort`, p.nodePort, `provided port is not in the valid range. The range of valid ports is ${low}-${high}`));
        return;
      } else if (used.nodePorts.has(p.nodePort)) {
        errors.push(invalidField(`spec.ports[${i}].nodePort`, p.nodePort, `provided port is already allocated`));
      }
      if (p.nodePort !== undefined) used.nodePorts.add(p.nodePort);
    });
  }
  if (needsHealthCheckNodePort(spec) && !spec.healthCheckNodePort) {
    const [low, high] = NODE_PORT_RANGE;
    spec.healthCheckNodePort = pick(random, high - low + 1, (k) => low + k, (port) => used.nodePorts.has(port));
    if (spec.healthCheckNodePort !== undefined) used.nodePorts.add(spec.healthCheckNodePort);
  }
  if (errors.length > 0) throw invalidObject('Service', '', name, errors);
}

/** A LoadBalancer whose externalTrafficPolicy is Local gets a node port for its health checks. */
const needsHealthCheckNodePort = (spec: Obj) => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

/** The addresses a stored Service holds. */
export function serviceAddresses(spec: Obj): ServiceAllocations {
  const ips = new Set<string>();
  const ports = new Set<number>();
  for (const ip of [spec?.clusterIP, ...(Array.isArray(spec?.clusterIPs) ? spec.clusterIPs : [])]) if (typeof ip === 'string' && ip && ip !== 'None') ips.add(ip);
  for (const p of Array.isArray(spec?.ports) ? spec.ports : []) if (p && typeof p.nodePort === 'number' && p.nodePort > 0) ports.add(p.nodePort);
  if (typeof spec?.healthCheckNodePort === 'number' && spec.healthCheckNodePort > 0) ports.add(spec.healthCheckNodePort);
  return { clusterIPs: ips, nodePorts: ports };
}

/** On update, the addresses the stored Service holds stay unless the new spec names others (node ports only while both types use them). */
export function keepAllocated(spec: Obj, old: Obj): void {
  if ((spec.clusterIP === undefined || spec.clusterIP === '') && old.clusterIP !== undefined && spec.type !== 'ExternalName') {
    spec.clusterIP = old.clusterIP;
    spec.clusterIPs ??= old.clusterIPs;
  }
  if (spec.clusterIP === old.clusterIP) {
    spec.ipFamilies ??= old.ipFamilies;
    spec.ipFamilyPolicy ??= old.ipFamilyPolicy;
  }
  if (needsHealthCheckNodePort(spec) && needsHealthCheckNodePort(old) && !spec.healthCheckNodePort && old.healthCheckNodePort) spec.healthCheckNodePort = old.healthCheckNodePort;
  const needsNodePorts = (s: Obj) => s.type === 'NodePort' || s.type === 'LoadBalancer';
  if (!needsNodePorts(spec) || !needsNodePorts(old)) return;
  const oldPorts: Obj[] = Array.isArray(old.ports) ? old.ports : [];
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    if (!p || typeof p !== 'object' || (p.nodePort !== undefined && p.nodePort !== 0)) continue;
    const match = oldPorts.find((o) => o && (p.name ? o.name === p.name : o.port === p.port) && o.nodePort);
    if (match) p.nodePort = match.nodePort;
  }
}

/** A random free value out of `count`, probing onwards from a random start; undefined when all are taken. */
function pick<T>(random: Random, count: number, at: (i: number) => T, taken: (v: T) => boolean): T | undefined {
  const start = Math.floor(random() * count);
  for (let k = 0; k < count; k++) {
    const v = at((start + k) % count);
    if (!taken(v)) return v;
  }
  return undefined;
}
