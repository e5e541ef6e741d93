/**
 * Objects a kube-apiserver v1.26 creates itself, as it stores them: the system namespaces
 * (transcript w10-namespaces-fieldselector-status-phase: label `kubernetes.io/metadata.name`,
 * spec.finalizers ["kubernetes"], phase Active, one `kube-apiserver` Update managedFields entry
 * for the label) and the `kubernetes` Service in `default` (ClusterIP 10.0.0.1, the first address
 * of the apiserver's default service range 10.0.0.0/24, port https 443 → 6443; field order as in
 * transcript w1-defaults-service-clusterip). Namespaces kubetape adds for a recording that shows
 * a namespace without its object carry the manager `kubetape`.
 */
import { createHash } from 'node:crypto';
import { StoredObject } from '../reconstruct';

/** The namespaces a fresh cluster holds, in the order the apiserver creates them. */
export const SYSTEM_NAMESPACES = ['kube-system', 'kube-public', 'kube-node-lease', 'default'] as const;

export interface CreatedMeta {
  uid: string;
  resourceVersion: string;
  /** ms since the epoch; written with second resolution, as the apiserver does. */
  createdAt: number;
  /** The managedFields manager (`kube-apiserver` for what the apiserver creates itself). */
  manager: string;
}

export function namespaceJson(name: string, meta: CreatedMeta): string {
  const time = timestamp(meta.createdAt);
  return JSON.stringify({
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: {
      name,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: time,
      labels: { 'kubernetes.io/metadata.name': name },
      managedFields: [managedFields(meta.manager, time, { 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } } })],
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  });
}

export function kubernetesServiceJson(meta: CreatedMeta): string {
  const time = timestamp(meta.createdAt);
  const fields = {
    'f:metadata': { 'f:labels': { '.': {}, 'f:component': {}, 'f:provider': {} } },
    'f:spec': {
      'f:clusterIP': {},
      'f:internalTrafficPolicy': {},
      'f:ipFamilyPolicy': {},
      'f:ports': { '.': {}, 'k:{"port":443,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } },
      'f:sessionAffinity': {},
      'f:type': {},
    },
  };
  return JSON.stringify({
    kind: 'Service',
    apiVersion: 'v1',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: time,
      labels: { component: 'apiserver', provider: 'kubernetes' },
      managedFields: [managedFields(meta.manager, time, fields)],
    },
    spec: {
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
      clusterIP: '10.0.0.1',
      clusterIPs: ['10.0.0.1'],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    },
    status: { loadBalancer: {} },
  });
}

/** A stored object kubetape made (its JSON in memory, nothing to read from a recording). */
export class MadeObject extends StoredObject {
  constructor(json: string) {
    super();
    this.cache().json = json;
  }
}

/** A version-4-shaped UUID derived from `seed`: the same object gets the same uid in every run. */
export function stableUid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** RFC 3339 with second resolution (`2026-11-24T05:23:23Z`). */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function managedFields(manager: string, time: string, fieldsV1: object): object {
  return { manager, operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1 };
}
