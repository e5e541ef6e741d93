/**
 * The zero value of a built-in kind as the apiserver's fieldmanager sees it on create (the Go
 * struct converted to unstructured): struct fields that are not pointers are present, empty, so
 * an Update that fills them records their members but not the struct itself (`".":{}` only on
 * what was really added: maps, pointer structs, list items); a slice without omitempty is null.
 * Kinds not listed have metadata,
 * spec and status only. Pure.
 */
type Obj = Record<string, any>;

/** A PodSpec's `containers` has no omitempty: the zero pod spec holds `containers: null`. */
const podTemplate = (): Obj => ({ metadata: {}, spec: { containers: null } });

const ZERO: Record<string, () => Obj> = {
  Deployment: () => ({ metadata: {}, spec: { template: podTemplate(), strategy: {} }, status: {} }),
  ReplicaSet: () => ({ metadata: {}, spec: { template: podTemplate() }, status: {} }),
  StatefulSet: () => ({ metadata: {}, spec: { template: podTemplate(), updateStrategy: {} }, status: {} }),
  DaemonSet: () => ({ metadata: {}, spec: { template: podTemplate(), updateStrategy: {} }, status: {} }),
  Job: () => ({ metadata: {}, spec: { template: podTemplate() }, status: {} }),
  CronJob: () => ({ metadata: {}, spec: { jobTemplate: { metadata: {}, spec: { template: podTemplate() } } }, status: {} }),
  PodTemplate: () => ({ metadata: {}, template: podTemplate() }),
  Pod: () => ({ metadata: {}, spec: { containers: null }, status: {} }),
  ReplicationController: () => ({ metadata: {}, spec: {}, status: {} }),
  Service: () => ({ metadata: {}, spec: {}, status: { loadBalancer: {} } }),
  ConfigMap: () => ({ metadata: {} }),
  Secret: () => ({ metadata: {} }),
};

export function zeroObject(kind: string): Obj {
  return ZERO[kind]?.() ?? { metadata: {}, spec: {}, status: {} };
}
