/**
 * The apiserver's defaulting of a pod spec and what it nests (k8s.io/api core/v1 SetDefaults_*
 * as a v1.26 apiserver runs them on decode, reference/apiserver-facts-writes.md "Defaults"):
 * containers, ports, probes and lifecycle handlers, env field references, volumes. Fills in
 * what is absent, or (for the fields Go defaults when zero: pull policy, protocol, probe
 * thresholds, restart and DNS policy …) empty or 0. Pure.
 */
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

/** A PodSpec inside a Pod or a template (`enableServiceLinks` is the Pod's own: `isPod`). */
export function defaultPodSpec(spec: Obj, isPod: boolean): void {
  for (const c of [...objects(spec.initContainers), ...objects(spec.containers)]) defaultContainer(c, spec.hostNetwork === true);
  for (const c of objects(spec.ephemeralContainers)) defaultContainer(c, false);
  spec.restartPolicy ||= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ||= 'default-scheduler';
  if (isPod) spec.enableServiceLinks ??= true;
  for (const v of objects(spec.volumes)) defaultVolume(v);
  if (isPod) {
    // SetDefaults_Pod: requests default to the limits.
    for (const c of [...objects(spec.initContainers), ...objects(spec.containers)]) {
      const limits = c.resources?.limits;
      if (!isPlainObject(limits)) continue;
      c.resources.requests ??= {};
      for (const [k, v] of Object.entries(limits)) c.resources.requests[k] ??= v;
    }
  }
}

function defaultContainer(c: Obj, hostNetwork: boolean): void {
  c.resources ??= {};
  c.terminationMessagePath ||= '/dev/termination-log';
  c.terminationMessagePolicy ||= 'File';
  c.imagePullPolicy ||= pullPolicy(String(c.image ?? ''));
  for (const p of objects(c.ports)) {
    p.protocol ||= 'TCP';
    if (hostNetwork) p.hostPort ||= p.containerPort;
  }
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) if (isPlainObject(probe)) defaultProbe(probe);
  if (isPlainObject(c.lifecycle)) for (const h of [c.lifecycle.postStart, c.lifecycle.preStop]) if (isPlainObject(h)) defaultHandler(h);
  for (const e of objects(c.env)) if (isPlainObject(e.valueFrom?.fieldRef)) e.valueFrom.fieldRef.apiVersion ??= 'v1';
}

/** Always for `:latest` or an untagged image, IfNotPresent for a tag or a digest. */
export function pullPolicy(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  if (colon < 0) return 'Always';
  return image.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(p: Obj): void {
  defaultHandler(p);
  p.timeoutSeconds ||= 1;
  p.periodSeconds ||= 10;
  p.successThreshold ||= 1;
  p.failureThreshold ||= 3;
}

function defaultHandler(h: Obj): void {
  if (isPlainObject(h.httpGet)) {
    h.httpGet.path ||= '/';
    h.httpGet.scheme ||= 'HTTP';
  }
  if (isPlainObject(h.grpc)) h.grpc.service ??= '';
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral',
];

function defaultVolume(v: Obj): void {
  if (!VOLUME_SOURCES.some((s) => v[s] !== undefined && v[s] !== null)) v.emptyDir = {};
  if (isPlainObject(v.hostPath)) v.hostPath.type ??= '';
  for (const s of ['secret', 'configMap', 'downwardAPI', 'projected']) if (isPlainObject(v[s])) v[s].defaultMode ??= 420;
  if (isPlainObject(v.downwardAPI)) for (const item of objects(v.downwardAPI.items)) if (isPlainObject(item.fieldRef)) item.fieldRef.apiVersion ??= 'v1';
  if (isPlainObject(v.projected)) {
    for (const source of objects(v.projected.sources)) {
      if (isPlainObject(source.serviceAccountToken)) source.serviceAccountToken.expirationSeconds ??= 3600;
      if (isPlainObject(source.downwardAPI)) for (const item of objects(source.downwardAPI.items)) if (isPlainObject(item.fieldRef)) item.fieldRef.apiVersion ??= 'v1';
    }
  }
  if (isPlainObject(v.iscsi)) v.iscsi.iscsiInterface ??= 'default';
  if (isPlainObject(v.rbd)) {
    v.rbd.pool ??= 'rbd';
    v.rbd.user ??= 'admin';
    v.rbd.keyring ??= '/etc/ceph/keyring';
  }
  if (isPlainObject(v.azureDisk)) {
    v.azureDisk.cachingMode ??= 'ReadWrite';
    v.azureDisk.fsType ??= 'ext4';
    v.azureDisk.readOnly ??= false;
    v.azureDisk.kind ??= 'Shared';
  }
  if (isPlainObject(v.scaleIO)) {
    v.scaleIO.storageMode ??= 'ThinProvisioned';
    v.scaleIO.fsType ??= 'xfs';
  }
}

/** The QoS class of a pod from its containers' requests and limits. */
export function qosClass(spec: Obj): string {
  const containers = [...objects(spec.initContainers), ...objects(spec.containers)];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const requests: Obj = isPlainObject(c.resources?.requests) ? c.resources.requests : {};
    const limits: Obj = isPlainObject(c.resources?.limits) ? c.resources.limits : {};
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      if (limits[r] === undefined || (requests[r] !== undefined && String(requests[r]) !== String(limits[r]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** Admission that follows defaulting for a new Pod: default tolerations (300 s) and priority. */
export function admitPod(spec: Obj): void {
  const tolerations: Obj[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    const has = tolerations.some((t) => isPlainObject(t) && (t.key === key || (t.key === undefined && t.operator === 'Exists')) && (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute'));
    if (!has) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
  spec.tolerations = tolerations;
  spec.priority ??= 0;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
}
