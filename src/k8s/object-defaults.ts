/**
 * What a v1.26 apiserver fills in on the built-in kinds (reference/apiserver-facts-writes.md
 * "Defaults", the w1-defaults-* transcripts), in two steps as it does:
 *
 * - `applyDefaults`: the defaulting run on decode, on create and update; the creating manager's
 *   managedFields include these fields.
 * - `completeCreate` / `completeUpdate`: what the registry strategies and admission set after
 *   the managedFields are computed (Job selector and labels, Pod tolerations and priority, Service
 *   addresses), the initial status, and the `creationTimestamp: null` every embedded
 *   ObjectMeta serialises with.
 *
 * Pure: allocation reads the addresses in use and the injected random source.
 */
import { defaultCrd, initialCrdStatus, recordStorageVersion } from './crd-object';
import { OBJECT_META_ORDER } from './object-order';
import { defaultHpaSpec } from './hpa-defaults';
import { admitPod, defaultPodSpec, qosClass } from './pod-defaults';
import { allocateService, keepAllocated, serviceAddresses, type ServiceAllocations } from './service-allocation';
import { dropTypeDependentFields } from './service-type-change';
import { defaultWebhookConfiguration } from './webhook-config-defaults';
import type { Random } from './names';
import { isPlainObject } from '../wire/json-object';
import { RBAC_GROUP } from './rbac-validation';

type Obj = Record<string, any>;

const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

const DAEMONSET_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** Decode-time defaults of `obj` (a built-in kind); `old` is the stored object on update. */
export function applyDefaults(kind: string, obj: Obj, old?: Obj): void {
  const spec = isPlainObject(obj.spec) ? obj.spec : undefined;
  const template = (s: Obj | undefined) => (isPlainObject(s?.template?.spec) ? (s!.template.spec as Obj) : undefined);
  switch (kind) {
    case 'CustomResourceDefinition':
      defaultCrd(obj);
      return;
    case 'Pod':
      if (spec) defaultPodSpec(spec, true);
      return;
    case 'PodTemplate':
      if (isPlainObject(obj.template?.spec)) defaultPodSpec(obj.template.spec, false);
      return;
    case 'ReplicationController': {
      if (!spec) return;
      // SetDefaults_ReplicationController: an empty selector and empty labels take the template's labels.
      const labels = isPlainObject(spec.template?.metadata?.labels) ? spec.template.metadata.labels : undefined;
      if (labels) {
        if (!isPlainObject(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
        const meta = (obj.metadata ??= {});
        if (!isPlainObject(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
      }
      spec.replicas ??= 1;
      if (template(spec)) defaultPodSpec(template(spec)!, false);
      return;
    }
    case 'Deployment':
      if (!spec) return;
      spec.replicas ??= 1;
      spec.strategy ??= {};
      spec.strategy.type ??= 'RollingUpdate';
      if (spec.strategy.type === 'RollingUpdate') {
        spec.strategy.rollingUpdate ??= {};
        spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
        spec.strategy.rollingUpdate.maxSurge ??= '25%';
      }
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      if (template(spec)) defaultPodSpec(template(spec)!, false);
      return;
    case 'ReplicaSet':
      if (!spec) return;
      spec.replicas ??= 1;
      if (template(spec)) defaultPodSpec(template(spec)!, false);
      return;
    case 'StatefulSet':
      if (!spec) return;
      spec.replicas ??= 1;
      spec.podManagementPolicy ??= 'OrderedReady';
      spec.updateStrategy ??= {};
      spec.updateStrategy.type ??= 'RollingUpdate';
      if (spec.updateStrategy.type === 'RollingUpdate') {
        spec.updateStrategy.rollingUpdate ??= {};
        spec.updateStrategy.rollingUpdate.partition ??= 0;
      }
      spec.revisionHistoryLimit ??= 10;
      for (const pvc of objects(spec.volumeClaimTemplates)) {
        if (isPlainObject(pvc.spec)) pvc.spec.volumeMode ??= 'Filesystem';
      }
      if (template(spec)) defaultPodSpec(template(spec)!, false);
      return;
    case 'DaemonSet': {
      if (!spec) return;
      spec.updateStrategy ??= {};
      spec.updateStrategy.type ??= 'RollingUpdate';
      if (spec.updateStrategy.type === 'RollingUpdate') {
        spec.updateStrategy.rollingUpdate ??= {};
        spec.updateStrategy.rollingUpdate.maxUnavailable ??= 1;
        spec.updateStrategy.rollingUpdate.maxSurge ??= 0;
      }
      spec.revisionHistoryLimit ??= 10;
      if (template(spec)) defaultPodSpec(template(spec)!, false);
      const meta = (obj.metadata ??= {});
      const previous = Number(old?.metadata?.annotations?.[DAEMONSET_TEMPLATE_GENERATION] ?? 0);
      const generation = !old ? 1 : JSON.stringify(old.spec?.template) === JSON.stringify(spec.template) ? previous : previous + 1;
      meta.annotations = { ...(meta.annotations ?? {}), [DAEMONSET_TEMPLATE_GENERATION]: String(generation) };
      return;
    }
    case 'Job':
      if (!spec) return;
      defaultJobSpec(spec);
      if (template(spec)) defaultPodSpec(template(spec)!, false);
      return;
    case 'CronJob':
      if (!spec) return;
      spec.concurrencyPolicy ??= 'Allow';
      spec.suspend ??= false;
      spec.successfulJobsHistoryLimit ??= 3;
      spec.failedJobsHistoryLimit ??= 1;
      if (template(spec.jobTemplate?.spec)) defaultPodSpec(template(spec.jobTemplate.spec)!, false);
      return;
    case 'Service':
      if (!spec) return;
      defaultServiceSpec(spec);
      if (isPlainObject(old?.spec)) dropTypeDependentFields(spec, old!.spec);
      return;
    case 'NetworkPolicy':
      if (!spec) return;
      for (const rule of [...objects(spec.ingress), ...objects(spec.egress)]) for (const port of objects(rule.ports)) port.protocol ??= 'TCP';
      if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
      return;
    case 'IngressClass':
      if (isPlainObject(spec?.parameters)) spec.parameters.scope ??= 'Cluster';
      return;
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      if (isPlainObject(obj.roleRef) && !obj.roleRef.apiGroup) obj.roleRef.apiGroup = RBAC_GROUP;
      for (const subject of objects(obj.subjects)) {
        if (!subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group')) subject.apiGroup = RBAC_GROUP;
      }
      return;
    case 'HorizontalPodAutoscaler':
      if (spec) defaultHpaSpec(spec, obj.apiVersion === 'autoscaling/v2');
      return;
    case 'MutatingWebhookConfiguration':
    case 'ValidatingWebhookConfiguration':
      defaultWebhookConfiguration(obj, kind === 'MutatingWebhookConfiguration');
      return;
    case 'Secret':
      if (isPlainObject(obj.stringData)) {
        obj.data = { ...(isPlainObject(obj.data) ? obj.data : {}) };
        for (const [k, v] of Object.entries(obj.stringData)) obj.data[k] = Buffer.from(String(v), 'utf8').toString('base64');
      }
      delete obj.stringData;
      obj.type ??= 'Opaque';
      return;
    default:
  }
}

function defaultJobSpec(spec: Obj): void {
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
}

function defaultServiceSpec(spec: Obj): void {
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  if (spec.sessionAffinity === 'ClientIP') {
    spec.sessionAffinityConfig ??= {};
    spec.sessionAffinityConfig.clientIP ??= {};
    spec.sessionAffinityConfig.clientIP.timeoutSeconds ??= 10800;
  }
  for (const p of objects(spec.ports)) {
    p.protocol ??= 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (spec.type !== 'ExternalName') spec.internalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
}

/** What the strategies and admission set on a new object, after its managedFields. */
export interface CreateContext {
  uid: string;
  random: Random;
  /** Service cluster IPs and node ports in use (read from the store). */
  allocations: () => ServiceAllocations;
}

export function completeCreate(kind: string, obj: Obj, ctx: CreateContext): void {
  const meta = (obj.metadata ??= {});
  const spec = isPlainObject(obj.spec) ? obj.spec : undefined;
  if (kind === 'Job' && spec) {
    const labels = { 'controller-uid': ctx.uid, 'job-name': String(meta.name ?? '') };
    if (spec.manualSelector !== true) {
      spec.template ??= {};
      spec.template.metadata = { ...(spec.template.metadata ?? {}), labels: { ...labels, ...(spec.template.metadata?.labels ?? {}) } };
      spec.selector = { matchLabels: { 'controller-uid': ctx.uid } };
    }
    if (!isPlainObject(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
    meta.annotations = { ...(meta.annotations ?? {}), 'batch.kubernetes.io/job-tracking': '' };
  }
  if (kind === 'Pod' && spec) admitPod(spec);
  if (kind === 'Service' && spec) allocateService(spec, ctx.allocations(), ctx.random, String(meta.name ?? ''));
  const status = initialStatus(kind, obj);
  if (status !== undefined) obj.status = status;
  nullTemplateTimestamps(kind, obj);
}

/** The update's counterpart: a Service keeps its allocated addresses, a CRD records its storage version; embedded metadata as on create. */
export function completeUpdate(kind: string, obj: Obj, old: Obj, ctx: Omit<CreateContext, 'uid'>): void {
  if (kind === 'Service' && isPlainObject(obj.spec)) {
    const oldSpec = isPlainObject(old.spec) ? old.spec : {};
    keepAllocated(obj.spec, oldSpec);
    const own = serviceAddresses(oldSpec);
    const used = ctx.allocations();
    const others = { clusterIPs: new Set([...used.clusterIPs].filter((ip) => !own.clusterIPs.has(ip))), nodePorts: new Set([...used.nodePorts].filter((p) => !own.nodePorts.has(p))) };
    allocateService(obj.spec, others, ctx.random, String(obj.metadata?.name ?? ''));
  }
  if (kind === 'CustomResourceDefinition') recordStorageVersion(obj);
  nullTemplateTimestamps(kind, obj);
}

/** The status a new object is stored with (undefined: the kind has none). */
function initialStatus(kind: string, obj: Obj): Obj | undefined {
  switch (kind) {
    case 'Pod':
      return { phase: 'Pending', qosClass: qosClass(isPlainObject(obj.spec) ? obj.spec : {}) };
    case 'DaemonSet':
      return { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    case 'StatefulSet':
      return { replicas: 0, availableReplicas: 0 };
    case 'ReplicaSet':
    case 'ReplicationController':
      return { replicas: 0 };
    case 'Service':
      return { loadBalancer: {} };
    case 'Deployment':
    case 'Job':
    case 'CronJob':
      return {};
    case 'CustomResourceDefinition':
      return initialCrdStatus(obj);
    default:
      return undefined;
  }
}

const META_RANK = new Map(OBJECT_META_ORDER.map((k, i) => [k, i]));

/** The template already has its creationTimestamp, its metadata first and the metadata's keys in ObjectMeta order. */
function inTemplateOrder(t: Obj): boolean {
  const meta = t.metadata;
  if (!isPlainObject(meta) || meta.creationTimestamp === undefined) return false;
  for (const k in t) {
    if (k !== 'metadata') return false;
    break;
  }
  let last = -1;
  for (const k in meta) {
    const rank = META_RANK.get(k) ?? OBJECT_META_ORDER.length;
    if (rank < last || (rank === last && rank < OBJECT_META_ORDER.length)) return false;
    last = rank;
  }
  return true;
}

/** Embedded ObjectMeta (pod templates) serialises `creationTimestamp: null` when unset. */
function nullTemplateTimestamps(kind: string, obj: Obj): void {
  const spec = isPlainObject(obj.spec) ? obj.spec : undefined;
  const templates: Obj[] = [];
  if (kind === 'PodTemplate' && isPlainObject(obj.template)) templates.push(obj.template);
  if (['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController'].includes(kind) && isPlainObject(spec?.template)) templates.push(spec!.template);
  if (kind === 'CronJob' && isPlainObject(spec?.jobTemplate)) {
    templates.push(spec!.jobTemplate);
    if (isPlainObject(spec!.jobTemplate.spec?.template)) templates.push(spec!.jobTemplate.spec.template);
  }
  for (const t of templates) {
    if (inTemplateOrder(t)) continue;
    const meta: Obj = isPlainObject(t.metadata) ? t.metadata : {};
    if (meta.creationTimestamp === undefined) meta.creationTimestamp = null;
    const ordered: Obj = {};
    for (const k of OBJECT_META_ORDER) if (k in meta) ordered[k] = meta[k];
    for (const k of Object.keys(meta)) if (!(k in ordered)) ordered[k] = meta[k];
    const rest = Object.fromEntries(Object.entries(t).filter(([k]) => k !== 'metadata'));
    for (const k of Object.keys(t)) delete t[k];
    Object.assign(t, { metadata: ordered, ...rest });
  }
}

