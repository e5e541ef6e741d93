/**
 * core/validation's ValidateService / ValidateServiceCreate / ValidateServiceUpdate, schema-less,
 * in the order v1.26 appends their errors. The rules see the spec as the registry hands it to
 * validation: clusterIPs kept in step with clusterIP (normalizeClusterIPs) and, on update, the
 * allocated addresses a client left out patched in (patchAllocatedValues) — on a copy, the
 * stored object is left to the allocation (service-allocation). Pure.
 */
import { forbiddenField, invalidField, notSupportedField, requiredField, type FieldError, type FieldValue } from './field-errors';
import { isCidr, isValidIp, validateNonSpecialIp } from './ip-address';
import { isDns1123Subdomain } from './names';
import { isQualifiedName, validateLabels } from './object-meta-validation';
import {
  goStringPointer, isHeadless, normalizeClusterIPs, patchAllocatedValues, validateClusterIPsRelatedFields,
  validateExternalNameAddresses, validateUpgradeDowngradeClusterIPs, validateUpgradeDowngradeIPFamilies,
} from './service-cluster-ips';
import { validateServicePort } from './service-port-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const KUBELET_PORT = 10250;
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;
const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const LOAD_BALANCER_ONLY = "may only be used when `type` is 'LoadBalancer'";

/** ValidateServiceCreate (the spec rules; metadata is the caller's). */
export function validateService(svc: Obj): FieldError[] {
  const spec: Obj = structuredClone(isPlainObject(svc.spec) ? svc.spec : {});
  normalizeClusterIPs(spec);
  return serviceRules(spec, annotationsOf(svc));
}

/** ValidateServiceUpdate: the addresses, families and class that may not change, then ValidateService. */
export function validateServiceUpdate(next: Obj, old: Obj): FieldError[] {
  const spec: Obj = structuredClone(isPlainObject(next.spec) ? next.spec : {});
  const oldSpec: Obj = isPlainObject(old.spec) ? old.spec : {};
  patchAllocatedValues(spec, oldSpec);
  normalizeClusterIPs(spec, oldSpec);
  return [
    ...validateUpgradeDowngradeClusterIPs(oldSpec, spec),
    ...validateUpgradeDowngradeIPFamilies(oldSpec, spec),
    ...validateLoadBalancerClass(spec, oldSpec),
    ...(needsHealthCheck(oldSpec) && needsHealthCheck(spec) && (spec.healthCheckNodePort ?? 0) !== (oldSpec.healthCheckNodePort ?? 0)
      ? [forbiddenField('spec.healthCheckNodePort', 'field is immutable')]
      : []),
    ...serviceRules(spec, annotationsOf(next)),
  ];
}

/** ValidateService's spec rules on the normalized spec. */
function serviceRules(spec: Obj, annotations: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ports: Obj[] = Array.isArray(spec.ports) ? spec.ports.map((p: unknown) => (isPlainObject(p) ? p : {})) : [];
  const headless = isHeadless(spec);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(requiredField('spec.ports', ''));
  switch (spec.type) {
    case 'LoadBalancer':
      ports.forEach((p, i) => {
        if (p.port === KUBELET_PORT) errs.push(invalidField(`spec.ports[${i}]`, KUBELET_PORT, `may not expose port ${KUBELET_PORT} externally since it is used by kubelet`));
      });
      if (headless) errs.push(invalidField('spec.clusterIPs[0]', 'None', "may not be set to 'None' for LoadBalancer services"));
      break;
    case 'NodePort':
      if (headless) errs.push(invalidField('spec.clusterIPs[0]', 'None', "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      errs.push(...validateExternalNameAddresses(spec));
      const cname = (typeof spec.externalName === 'string' ? spec.externalName : '').replace(/\.$/, '');
      if (cname.length > 0) for (const msg of isDns1123Subdomain(cname)) errs.push(invalidField('spec.externalName', cname, msg));
      else errs.push(requiredField('spec.externalName', ''));
      break;
    }
    default:
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`)));
  if (isPlainObject(spec.selector)) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  errs.push(...validateSessionAffinity(spec));
  errs.push(...validateClusterIPsRelatedFields(spec));
  (Array.isArray(spec.externalIPs) ? spec.externalIPs : []).forEach((ip: unknown, i: number) => {
    const value = String(ip);
    const msgs = isValidIp(value);
    if (msgs.length > 0) for (const msg of msgs) errs.push(invalidField(`spec.externalIPs[${i}]`, value, msg));
    else errs.push(...validateNonSpecialIp(value, `spec.externalIPs[${i}]`));
  });
  if (!spec.type) errs.push(requiredField('spec.type', ''));
  else if (!SERVICE_TYPES.includes(spec.type)) errs.push(notSupportedField('spec.type', String(spec.type), SERVICE_TYPES));
  if (spec.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort) errs.push(forbiddenField(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p.nodePort) return;
    const key = `${p.protocol}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push({ type: 'Duplicate', field: `spec.ports[${i}].nodePort`, value: p.nodePort });
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol}/${p.port}`;
    if (seen.has(key)) errs.push({ type: 'Duplicate', field: `spec.ports[${i}]`, value: goServicePortKey(p) });
    seen.add(key);
  });
  errs.push(...validateSourceRanges(spec, annotations));
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts !== null && spec.type !== 'LoadBalancer') {
    errs.push(forbiddenField('spec.allocateLoadBalancerNodePorts', LOAD_BALANCER_ONLY));
  }
  if (spec.type === 'LoadBalancer' && (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null)) {
    errs.push(requiredField('allocateLoadBalancerNodePorts', ''));
  }
  errs.push(...validateLoadBalancerClass(spec));
  errs.push(...validateExternalTrafficPolicy(spec));
  errs.push(...validateInternalTrafficPolicy(spec));
  return errs;
}

function validateSessionAffinity(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const affinity = spec.sessionAffinity;
  if (!affinity) errs.push(requiredField('spec.sessionAffinity', ''));
  else if (!SESSION_AFFINITIES.includes(affinity)) errs.push(notSupportedField('spec.sessionAffinity', String(affinity), SESSION_AFFINITIES));
  const path = 'spec.sessionAffinityConfig';
  if (affinity === 'ClientIP') {
    const when = 'when session affinity type is ClientIP';
    const config = spec.sessionAffinityConfig;
    if (!isPlainObject(config)) return [...errs, requiredField(path, when)];
    if (!isPlainObject(config.clientIP)) return [...errs, requiredField(`${path}.clientIP`, when)];
    const timeout = config.clientIP.timeoutSeconds;
    if (timeout === undefined || timeout === null) return [...errs, requiredField(`${path}.clientIP.timeoutSeconds`, when)];
    if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
      errs.push(invalidField(`${path}.clientIP.timeoutSeconds`, timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`));
    }
  } else if (affinity === 'None' && spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null) {
    errs.push(forbiddenField(path, 'must not be set when session affinity is None'));
  }
  return errs;
}

/** The LoadBalancerSourceRanges field (the path is spelled as Go spells it) or its annotation. */
function validateSourceRanges(spec: Obj, annotations: Obj): FieldError[] {
  const ranges: string[] = Array.isArray(spec.loadBalancerSourceRanges) ? spec.loadBalancerSourceRanges.map(String) : [];
  const annotated = Object.prototype.hasOwnProperty.call(annotations, SOURCE_RANGES_ANNOTATION);
  if (ranges.length === 0 && !annotated) return [];
  const errs: FieldError[] = [];
  const fromField = ranges.length > 0;
  const field = fromField ? 'spec.LoadBalancerSourceRanges' : `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`;
  const value = fromField ? `[${ranges.join(' ')}]` : String(annotations[SOURCE_RANGES_ANNOTATION]);
  if (spec.type !== 'LoadBalancer') errs.push(forbiddenField(field, LOAD_BALANCER_ONLY));
  const specs = fromField ? ranges : (value.trim() || '0.0.0.0/0').split(',');
  if (!specs.every((s) => isCidr(s.trim()))) errs.push(invalidField(field, value, 'must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 '));
  return errs;
}

/** validateLoadBalancerClassField: only on LoadBalancer Services, a qualified name, fixed once set (`old`: on update). */
function validateLoadBalancerClass(spec: Obj, old?: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const cls = spec.loadBalancerClass;
  const set = cls !== undefined && cls !== null;
  if (old && old.type === 'LoadBalancer' && spec.type === 'LoadBalancer' && (old.loadBalancerClass ?? null) !== (cls ?? null)) {
    errs.push(invalidField('spec.loadBalancerClass', goStringPointer(cls), 'may not change once set'));
  }
  if (spec.type === 'LoadBalancer') {
    if (set) for (const msg of isQualifiedName(String(cls))) errs.push(invalidField('spec.loadBalancerClass', String(cls), msg));
  } else if (set) {
    errs.push(forbiddenField('spec.loadBalancerClass', LOAD_BALANCER_ONLY));
  }
  return errs;
}

const needsHealthCheck = (spec: Obj) => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

/**
 * validateServiceExternalTrafficPolicy. A LoadBalancer with policy Local gets its
 * healthCheckNodePort from the allocation, so a missing one is not an error here.
 */
function validateExternalTrafficPolicy(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const policy = spec.externalTrafficPolicy;
  const path = 'spec.externalTrafficPolicy';
  if (spec.type !== 'LoadBalancer' && spec.type !== 'NodePort') {
    if (policy) errs.push(invalidField(path, String(policy), "may only be set when `type` is 'NodePort' or 'LoadBalancer'"));
  } else if (!policy) {
    errs.push(requiredField(path, ''));
  } else if (!TRAFFIC_POLICIES.includes(policy)) {
    errs.push(notSupportedField(path, String(policy), TRAFFIC_POLICIES));
  }
  const hc = spec.healthCheckNodePort;
  if (!needsHealthCheck(spec)) {
    if (hc) errs.push(invalidField('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc && (hc < 1 || hc > 65535)) {
    errs.push(invalidField('spec.healthCheckNodePort', hc, 'must be between 1 and 65535, inclusive'));
  }
  return errs;
}

/** validateServiceInternalTrafficFieldsValue (the ServiceInternalTrafficPolicy gate is on in v1.26). */
function validateInternalTrafficPolicy(spec: Obj): FieldError[] {
  const policy = spec.internalTrafficPolicy;
  const path = 'spec.internalTrafficPolicy';
  if (policy === undefined || policy === null) {
    return ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type) ? [requiredField(path, '')] : [];
  }
  return TRAFFIC_POLICIES.includes(policy) ? [] : [notSupportedField(path, String(policy), TRAFFIC_POLICIES)];
}

/** The (protocol, port) key of a duplicate port as Go's %#v prints the core.ServicePort it builds. */
function goServicePortKey(p: Obj): FieldValue {
  const port = typeof p.port === 'number' ? p.port : 0;
  return {
    goSyntax: `core.ServicePort{Name:"", Protocol:${JSON.stringify(String(p.protocol ?? ''))}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
  };
}

function annotationsOf(obj: Obj): Obj {
  return isPlainObject(obj.metadata) && isPlainObject(obj.metadata.annotations) ? obj.metadata.annotations : {};
}

