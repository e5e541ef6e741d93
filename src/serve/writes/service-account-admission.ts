/**
 * The ServiceAccount admission plugin on a Pod create (plugin/pkg/admission/serviceaccount, v1.26
 * upstream): `spec.serviceAccountName` defaults to `default`; that ServiceAccount must exist in
 * the namespace, else 403 `error looking up service account NS/NAME: serviceaccount "NAME" not found`;
 * unless the Pod or the ServiceAccount opts out of automounting, a projected `kube-api-access-XXXXX`
 * volume (token 3607 s, `kube-root-ca.crt`, the namespace via the downward API) is added and
 * mounted read-only in every container that does not mount that path already. It runs after
 * managedFields are set: admission's changes belong to no manager (w1-defaults-pod).
 */
import { generateName } from '../../k8s/names';
import { forbidden } from '../../k8s/write-status';
import { objectKey } from '../../store/revision';
import type { WriteDeps } from './write-deps';
import { objectOf } from './written-object';

type Obj = Record<string, any>;

export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_EXPIRATION_SECONDS = 3607;
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** PodSpec fields in Go struct order (so the fields admission adds land where the apiserver writes them). */
const POD_SPEC_ORDER = [
  'volumes', 'initContainers', 'containers', 'ephemeralContainers', 'restartPolicy', 'terminationGracePeriodSeconds',
  'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount', 'automountServiceAccountToken',
  'nodeName', 'hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'securityContext', 'imagePullSecrets', 'hostname',
  'subdomain', 'affinity', 'schedulerName', 'tolerations', 'hostAliases', 'priorityClassName', 'priority', 'dnsConfig',
  'readinessGates', 'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy', 'overhead', 'topologySpreadConstraints',
  'setHostnameAsFQDN', 'os', 'hostUsers', 'schedulingGates', 'resourceClaims',
];
/** Container fields in Go struct order. */
const CONTAINER_ORDER = [
  'name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'volumeMounts', 'volumeDevices',
  'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'terminationMessagePath', 'terminationMessagePolicy',
  'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty', 'targetContainerName',
];

/** Admits a Pod about to be created in `namespace` (changes `pod` in place); throws the 403. */
export function admitServiceAccount(pod: Obj, namespace: string, deps: WriteDeps): void {
  const accounts = deps.resources.find('', 'v1', 'serviceaccounts');
  // A recording that never showed ServiceAccounts cannot tell whether one exists: admitted as is.
  if (!accounts) return;
  const spec = (pod.spec ??= {}) as Obj;
  if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
  const name = (spec.serviceAccountName as string | undefined) || 'default';
  const found = accounts.store.get(objectKey(namespace, name), deps.store.head);
  if (!found) {
    throw forbidden('pods', '', pod.metadata?.name ?? '', `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`);
  }
  spec.serviceAccountName = name;
  spec.serviceAccount = name;
  const account = objectOf(found.value, accounts.codec.type);
  const automount = spec.automountServiceAccountToken ?? account.automountServiceAccountToken ?? true;
  if (automount) mountToken(spec, deps);
  pod.spec = ordered(spec, POD_SPEC_ORDER);
}

function mountToken(spec: Obj, deps: WriteDeps): void {
  const volumes = (Array.isArray(spec.volumes) ? spec.volumes : []) as Obj[];
  const containers = CONTAINER_LISTS.flatMap((list) => (Array.isArray(spec[list]) ? (spec[list] as Obj[]) : []));
  const needing = containers.filter((c) => !((c.volumeMounts ?? []) as Obj[]).some((m) => m?.mountPath === SERVICE_ACCOUNT_MOUNT_PATH));
  if (needing.length === 0) return;
  let volumeName = generateName('kube-api-access-', deps.random);
  while (volumes.some((v) => v?.name === volumeName)) volumeName = generateName('kube-api-access-', deps.random);
  spec.volumes = [...volumes, tokenVolume(volumeName)];
  for (const list of CONTAINER_LISTS) {
    if (!Array.isArray(spec[list])) continue;
    spec[list] = (spec[list] as Obj[]).map((c) => {
      if (!needing.includes(c)) return c;
      const mounts = [...((c.volumeMounts ?? []) as Obj[]), { name: volumeName, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH }];
      return ordered({ ...c, volumeMounts: mounts }, CONTAINER_ORDER);
    });
  }
}

function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}

function ordered(obj: Obj, order: readonly string[]): Obj {
  const out: Obj = {};
  for (const k of order) if (k in obj) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!(k in out)) out[k] = obj[k];
  return out;
}
