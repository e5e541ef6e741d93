/**
 * What the serviceaccount and root-ca controllers of a real cluster had made in every namespace
 * before the recording started: the ServiceAccount `default` and the ConfigMap `kube-root-ca.crt`,
 * added to a recording's reconstruction (after seedRecordedNamespaces) at the revision the clock
 * starts from, as the synthesised namespaces are, in every namespace that exists at that revision,
 * unless the recording
 * - holds that object (at any revision, deleted or not): what it recorded stands; or
 * - holds the whole state of that resource in that namespace (a complete list of it there or in
 *   all namespaces, or a watch's initial events): the recorded cluster had no such object, and a
 *   list kubetape answers must not differ from the recorded one.
 * A resource the recording never mentions is served from then on (it now has objects).
 * The controllers (`--controllers`) take over from there: they recreate either when deleted.
 */
import { RecordedRevision, type Reconstruction } from '../reconstruct';
import { newSeenResource } from '../reconstruct/seen-resource';
import { ROOT_CA_CONFIGMAP, ROOT_CA_DESCRIPTION } from './controllers/root-ca-controller';
import { MadeObject, stableUid, timestamp } from './system-namespaces';

const NAMESPACES = '/v1/namespaces';
const SERVICE_ACCOUNTS = '/v1/serviceaccounts';
const CONFIG_MAPS = '/v1/configmaps';

export interface NamespaceDefaultsOptions {
  /** The serviceaccount controller runs: make `default` ServiceAccounts. */
  serviceAccounts: boolean;
  /** The root-ca controller runs with this CA: make `kube-root-ca.crt` ConfigMaps. */
  caPem?: string;
}

export interface SeededDefaults {
  /** Namespaces given a `default` ServiceAccount. */
  serviceAccounts: string[];
  /** Namespaces given a `kube-root-ca.crt` ConfigMap. */
  rootCaConfigMaps: string[];
}

/** Adds the objects described in the file comment; returns the namespaces each went into. */
export function seedNamespaceDefaults(rebuilt: Reconstruction, options: NamespaceDefaultsOptions, now: number): SeededDefaults {
  const rev = rebuilt.startRevision;
  const createdAt = rebuilt.timeline.length > 0 ? rebuilt.timeline.times[0]! : now;
  const namespaces = namespacesAt(rebuilt, rev);
  const seeded: SeededDefaults = { serviceAccounts: [], rootCaConfigMaps: [] };
  const missing = (resource: string, name: string) => {
    const held = new Set((rebuilt.lastRevisions.get(resource) ?? []).map((r) => r.key));
    const whole = rebuilt.listedWhole.get(resource) ?? new Set();
    return namespaces.filter((ns) => !held.has(`${ns}/${name}`) && !whole.has('') && !whole.has(`${ns}/`));
  };
  if (options.serviceAccounts) {
    for (const ns of missing(SERVICE_ACCOUNTS, 'default')) {
      add(rebuilt, SERVICE_ACCOUNTS, `${ns}/default`, serviceAccountJson(ns, rev, createdAt), rev, createdAt);
      seeded.serviceAccounts.push(ns);
    }
  }
  if (options.caPem !== undefined) {
    for (const ns of missing(CONFIG_MAPS, ROOT_CA_CONFIGMAP)) {
      add(rebuilt, CONFIG_MAPS, `${ns}/${ROOT_CA_CONFIGMAP}`, rootCaConfigMapJson(ns, options.caPem, rev, createdAt), rev, createdAt);
      seeded.rootCaConfigMaps.push(ns);
    }
  }
  return seeded;
}

/** The namespaces whose object exists (not deleted) at `rev`, sorted. */
function namespacesAt(rebuilt: Reconstruction, rev: number): string[] {
  const names: string[] = [];
  for (const last of rebuilt.lastRevisions.get(NAMESPACES) ?? []) {
    const visible = last.rev <= rev ? last : (last.at(rev) as RecordedRevision | undefined);
    if (visible && !visible.deleted) names.push(visible.key);
  }
  return names.sort();
}

function serviceAccountJson(namespace: string, rev: number, createdAt: number): string {
  return JSON.stringify({
    kind: 'ServiceAccount',
    apiVersion: 'v1',
    metadata: { name: 'default', namespace, uid: stableUid(`serviceaccount/${namespace}/default`), resourceVersion: String(rev), creationTimestamp: timestamp(createdAt) },
  });
}

/** As the root-ca controller writes it (its managedFields entry included). */
function rootCaConfigMapJson(namespace: string, caPem: string, rev: number, createdAt: number): string {
  const time = timestamp(createdAt);
  return JSON.stringify({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name: ROOT_CA_CONFIGMAP,
      namespace,
      uid: stableUid(`configmap/${namespace}/${ROOT_CA_CONFIGMAP}`),
      resourceVersion: String(rev),
      creationTimestamp: time,
      annotations: { 'kubernetes.io/description': ROOT_CA_DESCRIPTION },
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:ca.crt': {} }, 'f:metadata': { 'f:annotations': { '.': {}, 'f:kubernetes.io/description': {} } } },
        },
      ],
    },
    data: { 'ca.crt': caPem },
  });
}

function add(rebuilt: Reconstruction, resource: string, key: string, json: string, rev: number, at: number): void {
  if (!rebuilt.resources.has(resource)) {
    const info = newSeenResource('', 'v1', resource.slice('/v1/'.length));
    info.kind = resource === SERVICE_ACCOUNTS ? 'ServiceAccount' : 'ConfigMap';
    info.namespaced = true;
    info.json = true;
    info.floor = rev; // as for a resource served empty: its state is known from the start revision on
    rebuilt.resources.set(resource, info);
  }
  const lasts = rebuilt.lastRevisions.get(resource) ?? rebuilt.lastRevisions.set(resource, []).get(resource)!;
  lasts.push(new RecordedRevision(rev, key, new MadeObject(json), false, at, 'made'));
}
