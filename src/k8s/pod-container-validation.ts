/**
 * core/validation's validateContainers, validateInitContainers and validateContainerCommon
 * (v1.26): a container's name, image, termination message policy, ports, env and envFrom, volume
 * mounts, pull policy, resources and security context; a regular container's lifecycle handlers
 * and probes; in the order the Go code appends their errors; then the host ports that collide.
 * Pure.
 */
import { duplicateField, forbiddenField, invalidField, notFoundField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { isDns1123Label } from './names';
import { validateEnv, validateEnvFrom } from './pod-env-validation';
import { validateLifecycle, validateProbe } from './pod-probe-validation';
import { isValidPortName, isValidPortNum, PORT_PROTOCOLS } from './service-port-validation';
import { validateResourceRequirements } from './pod-resources-validation';
import { validateSecurityContext } from './pod-security-validation';
import { validateLocalDescendingPath } from './pod-volume-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

function validateContainerPorts(ports: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const idx = `${path}[${i}]`;
    const name = str(port.name);
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const msg of msgs) errs.push(invalidField(`${idx}.name`, name, msg));
      else if (names.has(name)) errs.push(duplicateField(`${idx}.name`, name));
      else names.add(name);
    }
    const containerPort = int(port.containerPort);
    if (containerPort === 0) errs.push(requiredField(`${idx}.containerPort`, ''));
    else for (const msg of isValidPortNum(containerPort)) errs.push(invalidField(`${idx}.containerPort`, containerPort, msg));
    const hostPort = int(port.hostPort);
    if (hostPort !== 0) for (const msg of isValidPortNum(hostPort)) errs.push(invalidField(`${idx}.hostPort`, hostPort, msg));
    const protocol = str(port.protocol);
    if (protocol.length === 0) errs.push(requiredField(`${idx}.protocol`, ''));
    else if (!PORT_PROTOCOLS.includes(protocol)) errs.push(notSupportedField(`${idx}.protocol`, protocol, PORT_PROTOCOLS));
  });
  return errs;
}

/** ValidateVolumeMounts: the name must name a valid volume (`volumes`), one mount per path. */
function validateVolumeMounts(mounts: Obj[], devices: Obj[], volumes: ReadonlyMap<string, Obj>, container: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  const deviceNames = new Set(devices.map((d) => str(d.name)));
  const devicePaths = new Set(devices.map((d) => str(d.devicePath)));
  mounts.forEach((m, i) => {
    const idx = `${path}[${i}]`;
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (name.length === 0) errs.push(requiredField(`${idx}.name`, ''));
    if (!volumes.has(name)) errs.push(notFoundField(`${idx}.name`, name));
    if (mountPath.length === 0) errs.push(requiredField(`${idx}.mountPath`, ''));
    if (mountPoints.has(mountPath)) errs.push(invalidField(`${idx}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (deviceNames.has(name)) errs.push(invalidField(`${idx}.name`, name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) errs.push(invalidField(`${idx}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    // Go names these two paths without the mount's index.
    const subPath = str(m.subPath);
    if (subPath.length > 0) errs.push(...validateLocalDescendingPath(subPath, `${path}.subPath`));
    const subPathExpr = str(m.subPathExpr);
    if (subPathExpr.length > 0) {
      if (subPath.length > 0) errs.push(invalidField(`${idx}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, `${path}.subPathExpr`));
    }
    if (m.mountPropagation !== undefined && m.mountPropagation !== null) {
      const propagation = str(m.mountPropagation);
      const supported = ['Bidirectional', 'HostToContainer', 'None'];
      if (!supported.includes(propagation)) errs.push(notSupportedField(`${path}.mountPropagation`, propagation, supported));
      if (propagation === 'Bidirectional' && container.securityContext?.privileged !== true) {
        errs.push({ type: 'Forbidden', field: `${path}.mountPropagation`, detail: 'Bidirectional mount propagation is available only to privileged containers' });
      }
    }
  });
  return errs;
}

function validatePullPolicy(policy: string, path: string): FieldError[] {
  if (PULL_POLICIES.includes(policy)) return [];
  if (policy === '') return [requiredField(path, '')];
  return [notSupportedField(path, policy, PULL_POLICIES)];
}

/** The termination message policy: Required when empty, NotSupported otherwise. */
function validateTerminationMessagePolicy(policy: string, path: string): FieldError[] {
  const supported = ['File', 'FallbackToLogsOnError'];
  if (supported.includes(policy)) return [];
  if (policy === '') return [requiredField(path, '')];
  return [notSupportedField(path, policy, supported)];
}

/** AccumulateUniqueHostPorts over `containers`: `TCP/<hostIP>/<port>` once. */
function checkHostPortConflicts(containers: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    list(c.ports).forEach((p, pi) => {
      const port = int(p.hostPort);
      if (port === 0) return;
      const key = `${str(p.protocol)}/${str(p.hostIP)}/${port}`;
      if (seen.has(key)) errs.push(duplicateField(`${path}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

/** validateContainerCommon: what regular, init and ephemeral containers share (name, image, termination message policy, ports, env, mounts, pull policy, resources, security context). */
export function validateContainerCommon(c: Obj, volumes: ReadonlyMap<string, Obj>, idx: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (name.length === 0) errs.push(requiredField(`${idx}.name`, ''));
  else for (const msg of isDns1123Label(name)) errs.push(invalidField(`${idx}.name`, name, msg));
  if (str(c.image).length === 0) errs.push(requiredField(`${idx}.image`, ''));
  errs.push(...validateTerminationMessagePolicy(str(c.terminationMessagePolicy), `${idx}.terminationMessagePolicy`));
  errs.push(...validateContainerPorts(list(c.ports), `${idx}.ports`));
  errs.push(...validateEnv(list(c.env), `${idx}.env`));
  errs.push(...validateEnvFrom(list(c.envFrom), `${idx}.envFrom`));
  errs.push(...validateVolumeMounts(list(c.volumeMounts), list(c.volumeDevices), volumes, c, `${idx}.volumeMounts`));
  errs.push(...validatePullPolicy(str(c.imagePullPolicy), `${idx}.imagePullPolicy`));
  errs.push(...validateResourceRequirements(c.resources, `${idx}.resources`));
  errs.push(...validateSecurityContext(c.securityContext, `${idx}.securityContext`));
  return errs;
}

/**
 * validateContainers: `containers` at `path`; `volumes` are the pod's valid volumes by name. Per
 * container the common rules, a unique name, then the lifecycle and the probes (which only
 * regular containers may have); then host ports across all containers.
 */
export function validateContainers(containers: Obj[], volumes: ReadonlyMap<string, Obj>, path: string): FieldError[] {
  if (containers.length === 0) return [requiredField(path, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const idx = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, idx));
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicateField(`${idx}.name`, name));
    else names.add(name);
    if (isPlainObject(c.lifecycle)) errs.push(...validateLifecycle(c.lifecycle, `${idx}.lifecycle`));
    errs.push(...validateProbe(c.livenessProbe, `${idx}.livenessProbe`));
    if (isPlainObject(c.livenessProbe) && int(c.livenessProbe.successThreshold) !== 1) {
      errs.push(invalidField(`${idx}.livenessProbe.successThreshold`, int(c.livenessProbe.successThreshold), 'must be 1'));
    }
    const readiness = c.readinessProbe;
    errs.push(...validateProbe(readiness, `${idx}.readinessProbe`));
    if (isPlainObject(readiness) && readiness.terminationGracePeriodSeconds !== undefined && readiness.terminationGracePeriodSeconds !== null) {
      errs.push(invalidField(`${idx}.readinessProbe.terminationGracePeriodSeconds`, readiness.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
    }
    errs.push(...validateProbe(c.startupProbe, `${idx}.startupProbe`));
    if (isPlainObject(c.startupProbe) && int(c.startupProbe.successThreshold) !== 1) {
      errs.push(invalidField(`${idx}.startupProbe.successThreshold`, int(c.startupProbe.successThreshold), 'must be 1'));
    }
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

/**
 * validateInitContainers: per init container the common rules, a name unique across both lists,
 * its own host ports (Go checks each as a one-element list, so the error names index 0), and no
 * lifecycle or probes.
 */
export function validateInitContainers(initContainers: Obj[], containers: Obj[], volumes: ReadonlyMap<string, Obj>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(containers.map((c) => str(c.name)));
  initContainers.forEach((c, i) => {
    const idx = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, idx));
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicateField(`${idx}.name`, name));
    else if (name.length > 0) names.add(name);
    errs.push(...checkHostPortConflicts([c], path));
    for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (isPlainObject(c[field])) errs.push(forbiddenField(`${idx}.${field}`, 'may not be set for init containers'));
    }
  });
  return errs;
}

/** validateContainersOnlyForPod: a Pod's (not a template's) images may not carry surrounding whitespace. */
export function validateContainersOnlyForPod(containers: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const image = str(c.image);
    if (image.length !== image.trim().length) errs.push(invalidField(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return errs;
}

/** validateHostNetwork: with `hostNetwork`, each container port's hostPort equals its containerPort. */
export function validateHostNetwork(hostNetwork: boolean, containers: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!hostNetwork) return errs;
  containers.forEach((c, i) => {
    list(c.ports).forEach((p, j) => {
      if (int(p.hostPort) !== int(p.containerPort)) errs.push(invalidField(`${path}[${i}].ports[${j}].containerPort`, int(p.containerPort), 'must match `hostPort` when `hostNetwork` is true'));
    });
  });
  return errs;
}
