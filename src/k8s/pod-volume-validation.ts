/**
 * core/validation's ValidateVolumes and validateVolumeSource (v1.26): each volume's name (a
 * DNS-1123 label, unique), exactly one source, and the common sources' own rules (emptyDir,
 * hostPath, secret, configMap, persistentVolumeClaim, projected, downwardAPI, nfs, csi); the
 * other sources are checked for their required fields only. Pure.
 */
import { forbiddenField, invalidField, notSupportedField, requiredField, tooLongField, type FieldError } from './field-errors';
import { isDns1123Label, isDns1123Subdomain } from './names';
import { validateObjectFieldSelector, validateResourceFieldSelector } from './pod-env-validation';
import { parseQuantity } from './quantity';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const FILE_MODE_MESSAGE = 'must be a number between 0 and 0777 (octal), both inclusive';
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** validatePathNoBacksteps: no `..` element. */
function validatePathNoBacksteps(target: string, path: string): FieldError[] {
  return target.split('/').includes('..') ? [invalidField(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative, without `..`. */
export function validateLocalDescendingPath(target: string, path: string): FieldError[] {
  const errs = target.startsWith('/') ? [invalidField(path, target, 'must be a relative path')] : [];
  return [...errs, ...validatePathNoBacksteps(target, path)];
}

function validateLocalNonReservedPath(target: string, path: string): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(invalidField(path, target, "must not start with '..'"));
  return errs;
}

function validateMode(mode: unknown, path: string): FieldError[] {
  return typeof mode === 'number' && (mode > 0o777 || mode < 0) ? [invalidField(path, mode, FILE_MODE_MESSAGE)] : [];
}

function validateKeyToPath(kp: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(kp.key).length === 0) errs.push(requiredField(`${path}.key`, ''));
  if (str(kp.path).length === 0) errs.push(requiredField(`${path}.path`, ''));
  errs.push(...validateLocalNonReservedPath(str(kp.path), `${path}.path`));
  errs.push(...validateMode(kp.mode, `${path}.mode`));
  return errs;
}

/** A secret or configMap volume (`nameField` is `secretName` or `name`). */
function validateKeyedSource(source: Obj, path: string, nameField: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(source[nameField]).length === 0) errs.push(requiredField(`${path}.${nameField}`, ''));
  errs.push(...validateMode(source.defaultMode, `${path}.defaultMode`));
  list(source.items).forEach((kp, i) => errs.push(...validateKeyToPath(kp, `${path}.items[${i}]`)));
  return errs;
}

function validateDownwardAPIFile(file: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const filePath = str(file.path);
  if (filePath.length === 0) errs.push(requiredField(`${path}.path`, ''));
  errs.push(...validateLocalNonReservedPath(filePath, `${path}.path`));
  if (isPlainObject(file.fieldRef)) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, VOLUME_FIELD_PATHS, `${path}.fieldRef`));
    if (isPlainObject(file.resourceFieldRef)) errs.push(invalidField(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isPlainObject(file.resourceFieldRef)) {
    errs.push(...validateResourceFieldSelector(file.resourceFieldRef, `${path}.resourceFieldRef`, true));
  } else {
    errs.push(requiredField(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateMode(file.mode, `${path}.mode`));
  return errs;
}

/** validateProjectedVolumeSource: defaultMode, then each source (one kind each), paths unique across them. */
function validateProjected(projected: Obj, path: string): FieldError[] {
  const errs = validateMode(projected.defaultMode, `${path}.defaultMode`);
  const paths = new Set<string>();
  const claim = (p: string, value: string) => {
    if (p.length === 0) return;
    if (paths.has(p)) errs.push(invalidField(path, value, 'conflicting duplicate paths'));
    else paths.add(p);
  };
  list(projected.sources).forEach((source, i) => {
    const src = `${path}.sources[${i}]`;
    let count = 0;
    for (const kind of ['secret', 'configMap']) {
      const s = source[kind];
      if (!isPlainObject(s)) continue;
      count++;
      if (str(s.name).length === 0) errs.push(requiredField(`${src}.${kind}.name`, ''));
      list(s.items).forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, `${src}.${kind}.items[${j}]`));
        claim(str(kp.path), str(s.name));
      });
    }
    if (isPlainObject(source.downwardAPI)) {
      count++;
      for (const file of list(source.downwardAPI.items)) {
        errs.push(...validateDownwardAPIFile(file, `${src}.downwardAPI`));
        claim(str(file.path), str(file.path));
      }
    }
    const token = source.serviceAccountToken;
    if (isPlainObject(token)) {
      count++;
      const seconds = typeof token.expirationSeconds === 'number' ? token.expirationSeconds : 0;
      if (seconds < 600) errs.push(invalidField(`${src}.serviceAccountToken.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(invalidField(`${src}.serviceAccountToken.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
      if (str(token.path).length === 0) errs.push(requiredField(`${path}.path`, ''));
    }
    if (count > 1) errs.push(forbiddenField(src, 'may not specify more than 1 volume type'));
  });
  return errs;
}

function validateHostPath(hostPath: Obj, path: string): FieldError[] {
  const p = str(hostPath.path);
  if (p.length === 0) return [requiredField(`${path}.path`, '')];
  const errs = validatePathNoBacksteps(p, `${path}.path`);
  if (hostPath.type !== undefined && hostPath.type !== null && !HOST_PATH_TYPES.includes(str(hostPath.type))) {
    errs.push(notSupportedField(`${path}.type`, str(hostPath.type), HOST_PATH_TYPES));
  }
  return errs;
}

function validateCsi(csi: Obj, path: string): FieldError[] {
  const driver = str(csi.driver);
  const errs: FieldError[] = [];
  if (driver.length === 0) errs.push(requiredField(`${path}.driver`, ''));
  if (driver.length > 63) errs.push(tooLongField(`${path}.driver`, 63));
  for (const msg of isDns1123Subdomain(driver.toLowerCase())) errs.push(invalidField(`${path}.driver`, driver, msg));
  if (isPlainObject(csi.nodePublishSecretRef) && str(csi.nodePublishSecretRef.name).length === 0) errs.push(requiredField(`${path}.nodePublishSecretRef.name`, ''));
  return errs;
}

/** The first required fields of the less common sources, as their validate functions check them. */
function requiredFields(fields: string[]): (s: Obj, path: string) => FieldError[] {
  return (s, path) => fields.filter((f) => (Array.isArray(s[f]) ? s[f].length === 0 : str(s[f]).length === 0)).map((f) => requiredField(`${path}.${f}`, ''));
}

/**
 * The sources in the order validateVolumeSource tries them, with the path Go gives their own
 * errors (gcePersistentDisk's are under `persistentDisk`, cephfs's under `cephfs`) and the one it
 * gives the "more than 1" error (downwardAPI's is spelled `downwarAPI`, storageos's `storageos`).
 */
const SOURCES: Array<{ key: string; forbidden: string; child: string; validate: (s: Obj, path: string) => FieldError[] }> = [
  { key: 'hostPath', forbidden: 'hostPath', child: 'hostPath', validate: validateHostPath },
  { key: 'gitRepo', forbidden: 'gitRepo', child: 'gitRepo', validate: (s, p) => [...requiredFields(['repository'])(s, p), ...validateLocalDescendingPath(str(s.directory), `${p}.directory`)] },
  { key: 'gcePersistentDisk', forbidden: 'gcePersistentDisk', child: 'persistentDisk', validate: requiredFields(['pdName']) },
  { key: 'awsElasticBlockStore', forbidden: 'awsElasticBlockStore', child: 'awsElasticBlockStore', validate: requiredFields(['volumeID']) },
  { key: 'secret', forbidden: 'secret', child: 'secret', validate: (s, p) => validateKeyedSource(s, p, 'secretName') },
  { key: 'nfs', forbidden: 'nfs', child: 'nfs', validate: (s, p) => [...requiredFields(['server', 'path'])(s, p), ...(str(s.path).startsWith('/') ? [] : [invalidField(`${p}.path`, str(s.path), 'must be an absolute path')])] },
  { key: 'iscsi', forbidden: 'iscsi', child: 'iscsi', validate: requiredFields(['targetPortal', 'iqn']) },
  { key: 'glusterfs', forbidden: 'glusterfs', child: 'glusterfs', validate: requiredFields(['endpoints', 'path']) },
  { key: 'flocker', forbidden: 'flocker', child: 'flocker', validate: (s, p) => (str(s.datasetName) || str(s.datasetUUID) ? [] : [requiredField(p, 'one of datasetName and datasetUUID is required')]) },
  { key: 'persistentVolumeClaim', forbidden: 'persistentVolumeClaim', child: 'persistentVolumeClaim', validate: requiredFields(['claimName']) },
  { key: 'rbd', forbidden: 'rbd', child: 'rbd', validate: requiredFields(['monitors', 'image']) },
  { key: 'cinder', forbidden: 'cinder', child: 'cinder', validate: requiredFields(['volumeID']) },
  { key: 'cephfs', forbidden: 'cephFS', child: 'cephfs', validate: requiredFields(['monitors']) },
  { key: 'quobyte', forbidden: 'quobyte', child: 'quobyte', validate: requiredFields(['volume']) },
  { key: 'downwardAPI', forbidden: 'downwarAPI', child: 'downwardAPI', validate: (s, p) => [...validateMode(s.defaultMode, `${p}.defaultMode`), ...list(s.items).flatMap((f) => validateDownwardAPIFile(f, p))] },
  { key: 'fc', forbidden: 'fc', child: 'fc', validate: (s, p) => (list(s.targetWWNs).length || list(s.wwids).length ? [] : [requiredField(`${p}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both')]) },
  { key: 'flexVolume', forbidden: 'flexVolume', child: 'flexVolume', validate: requiredFields(['driver']) },
  { key: 'configMap', forbidden: 'configMap', child: 'configMap', validate: (s, p) => validateKeyedSource(s, p, 'name') },
  { key: 'azureFile', forbidden: 'azureFile', child: 'azureFile', validate: requiredFields(['secretName', 'shareName']) },
  { key: 'vsphereVolume', forbidden: 'vsphereVolume', child: 'vsphereVolume', validate: requiredFields(['volumePath']) },
  { key: 'photonPersistentDisk', forbidden: 'photonPersistentDisk', child: 'photonPersistentDisk', validate: requiredFields(['pdID']) },
  { key: 'portworxVolume', forbidden: 'portworxVolume', child: 'portworxVolume', validate: requiredFields(['volumeID']) },
  { key: 'azureDisk', forbidden: 'azureDisk', child: 'azureDisk', validate: requiredFields(['diskName', 'diskURI']) },
  { key: 'storageos', forbidden: 'storageos', child: 'storageos', validate: requiredFields(['volumeName']) },
  { key: 'projected', forbidden: 'projected', child: 'projected', validate: validateProjected },
  { key: 'scaleIO', forbidden: 'scaleIO', child: 'scaleIO', validate: requiredFields(['gateway', 'system', 'volumeName']) },
  { key: 'csi', forbidden: 'csi', child: 'csi', validate: validateCsi },
  { key: 'ephemeral', forbidden: 'ephemeral', child: 'ephemeral', validate: (s, p) => (isPlainObject(s.volumeClaimTemplate) ? [] : [requiredField(`${p}.volumeClaimTemplate`, '')]) },
];

/** validateVolumeSource: emptyDir first, then each source in turn; none at all is Required. */
function validateVolumeSource(volume: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  if (isPlainObject(volume.emptyDir)) {
    count++;
    const limit = parseQuantity(volume.emptyDir.sizeLimit);
    if (limit?.negative) errs.push(forbiddenField(`${path}.emptyDir.sizeLimit`, 'SizeLimit field must be a valid resource quantity'));
  }
  for (const source of SOURCES) {
    if (!isPlainObject(volume[source.key])) continue;
    if (count > 0) {
      errs.push(forbiddenField(`${path}.${source.forbidden}`, 'may not specify more than 1 volume type'));
    } else {
      count++;
      errs.push(...source.validate(volume[source.key], `${path}.${source.child}`));
    }
  }
  if (count === 0) errs.push(requiredField(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: the errors, and the valid volumes by name (a mount naming any other is Not found). */
export function validateVolumes(volumes: Obj[], path: string): { volumes: Map<string, Obj>; errors: FieldError[] } {
  const valid = new Map<string, Obj>();
  const names = new Set<string>();
  const errors: FieldError[] = [];
  volumes.forEach((volume, i) => {
    const idx = `${path}[${i}]`;
    const name = str(volume.name);
    const el = validateVolumeSource(volume, idx);
    if (name.length === 0) el.push(requiredField(`${idx}.name`, ''));
    else for (const msg of isDns1123Label(name)) el.push(invalidField(`${idx}.name`, name, msg));
    if (names.has(name)) el.push({ type: 'Duplicate', field: `${idx}.name`, value: name });
    if (el.length === 0) {
      names.add(name);
      valid.set(name, volume);
    } else {
      errors.push(...el);
    }
  });
  return { volumes: valid, errors };
}
