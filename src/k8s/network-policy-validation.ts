/**
 * networking/validation's ValidateNetworkPolicySpec as kube-apiserver v1.26 runs it on create and
 * update (after the metadata rules): the pod selector, each ingress and egress rule's ports
 * (protocol, port number or name, endPort) and peers (exactly one of the selectors or an
 * ipBlock), then the policy types. Pure.
 */
import { invalidField, notSupportedField, requiredField, forbiddenField, type FieldError } from './field-errors';
import { validateLabelSelector } from './label-selector-validation';
import { validateIpBlock } from './ip-block-validation';
import { isValidPortName, isValidPortNum } from './service-port-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** The protocols a NetworkPolicyPort may name, in the order Go lists them. */
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** ValidateNetworkPolicy / ValidateNetworkPolicyUpdate (the spec part; an update checks the new spec alone). */
export function validateNetworkPolicy(np: Obj): FieldError[] {
  const spec: Obj = isPlainObject(np.spec) ? np.spec : {};
  const errs = validateLabelSelector(isPlainObject(spec.podSelector) ? spec.podSelector : {}, 'spec.podSelector');
  objects(spec.ingress).forEach((rule, i) => {
    objects(rule.ports).forEach((port, j) => errs.push(...validateNetworkPolicyPort(port, `spec.ingress[${i}].ports[${j}]`)));
    objects(rule.from).forEach((peer, j) => errs.push(...validateNetworkPolicyPeer(peer, `spec.ingress[${i}].from[${j}]`)));
  });
  objects(spec.egress).forEach((rule, i) => {
    objects(rule.ports).forEach((port, j) => errs.push(...validateNetworkPolicyPort(port, `spec.egress[${i}].ports[${j}]`)));
    objects(rule.to).forEach((peer, j) => errs.push(...validateNetworkPolicyPeer(peer, `spec.egress[${i}].to[${j}]`)));
  });
  const types: unknown[] = Array.isArray(spec.policyTypes) ? spec.policyTypes : [];
  if (types.length > POLICY_TYPES.length) {
    const shown = `[]networking.PolicyType{${types.map((t) => JSON.stringify(String(t))).join(', ')}}`;
    errs.push(invalidField('spec.policyTypes', { goSyntax: shown }, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(String(t))) errs.push(notSupportedField(`spec.policyTypes[${i}]`, String(t), POLICY_TYPES));
  });
  return errs;
}

/**
 * ValidateNetworkPolicyUpdate (the spec part): the create rules on `next`, except that a stored
 * policy whose pod selector already has a match-expression value that is no label value
 * (ValidationOptionsForNetworking's AllowInvalidLabelValueInSelector) keeps such values allowed.
 */
export function validateNetworkPolicyUpdate(next: Obj, old: Obj): FieldError[] {
  const errs = validateNetworkPolicy(next);
  const oldSelector = isPlainObject(old.spec?.podSelector) ? old.spec.podSelector : {};
  if (validateLabelSelector(oldSelector, 'spec.podSelector').length === 0) return errs;
  return errs.filter((e) => !(e.type === 'Invalid' && EXPRESSION_VALUE.test(e.field)));
}

const EXPRESSION_VALUE = /\.matchExpressions\[\d+\]\.values\[\d+\]$/;

/** ValidateNetworkPolicyPort: `port` an int-or-string; `endPort` only after a numeric port, not below it. */
export function validateNetworkPolicyPort(port: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(port.protocol) && !PROTOCOLS.includes(String(port.protocol))) errs.push(notSupportedField(`${path}.protocol`, String(port.protocol), PROTOCOLS));
  const hasEndPort = typeof port.endPort === 'number';
  const endPort: number = hasEndPort ? port.endPort : 0;
  if (typeof port.port === 'number') {
    for (const msg of isValidPortNum(port.port)) errs.push(invalidField(`${path}.port`, port.port, msg));
    if (hasEndPort) {
      // Go shows the port, not the endPort, as the value of this error.
      if (endPort < port.port) errs.push(invalidField(`${path}.endPort`, port.port, 'must be greater than or equal to `port`'));
      for (const msg of isValidPortNum(endPort)) errs.push(invalidField(`${path}.endPort`, endPort, msg));
    }
  } else if (typeof port.port === 'string') {
    if (hasEndPort) errs.push(invalidField(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of isValidPortName(port.port)) errs.push(invalidField(`${path}.port`, port.port, msg));
  } else if (hasEndPort) {
    errs.push(invalidField(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** ValidateNetworkPolicyPeer: at least one peer, and an ipBlock alone. */
export function validateNetworkPolicyPeer(peer: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  for (const key of ['podSelector', 'namespaceSelector'] as const) {
    if (!isPlainObject(peer[key])) continue;
    peers++;
    errs.push(...validateLabelSelector(peer[key], `${path}.${key}`));
  }
  const ipBlock = isPlainObject(peer.ipBlock);
  if (ipBlock) {
    peers++;
    errs.push(...validateIpBlock(peer.ipBlock, `${path}.ipBlock`));
  }
  if (peers === 0) errs.push(requiredField(path, 'must specify a peer'));
  else if (peers > 1 && ipBlock) errs.push(forbiddenField(path, 'may not specify both ipBlock and another peer'));
  return errs;
}
