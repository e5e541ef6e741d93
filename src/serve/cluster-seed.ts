/**
 * Objects serve holds besides what a recording gives: added to the reconstruction before the
 * store loads it, as part of the state the clock starts from (no watch event announces them).
 *
 * - No recording: the system namespaces and the `kubernetes` Service at revisions 1–5, the head
 *   after them, as a fresh v1.26 cluster holds them (its other bootstrap objects are left out).
 * - A recording: a Namespace for every namespace it shows (objects in it, lists and watches
 *   scoped to it, and the four system namespaces every cluster has) whose object it does not
 *   hold, at the revision the clock starts from — so `kubectl get ns` lists them and a 404
 *   inside one is the object's, not the namespace's.
 */
import { RecordedRevision, type Reconstruction } from '../reconstruct';
import { MadeObject, SYSTEM_NAMESPACES, kubernetesServiceJson, namespaceJson, stableUid, type CreatedMeta } from './system-namespaces';

const NAMESPACES = '/v1/namespaces';
const SERVICES = '/v1/services';

/** The empty cluster's objects; moves the reconstruction's start and end to the revision after them. */
export function seedEmptyCluster(rebuilt: Reconstruction, now: number): void {
  let rev = 0;
  const meta = (seed: string): CreatedMeta => ({ uid: stableUid(seed), resourceVersion: String(++rev), createdAt: now, manager: 'kube-apiserver' });
  for (const name of SYSTEM_NAMESPACES) add(rebuilt, NAMESPACES, name, namespaceJson(name, meta(`namespace/${name}`)), rev, now);
  add(rebuilt, SERVICES, 'default/kubernetes', kubernetesServiceJson(meta('service/default/kubernetes')), rev, now);
  rebuilt.startRevision = rev;
  rebuilt.endRevision = Math.max(rebuilt.endRevision, rev);
}

export interface SeededNamespaces {
  /** Namespaces whose object the recording holds. */
  recorded: string[];
  /** Namespaces the recording shows without their object: made here. */
  synthesised: string[];
}

/** Adds the Namespace objects a recording shows but does not hold (see the file comment). */
export function seedRecordedNamespaces(rebuilt: Reconstruction, now: number): SeededNamespaces {
  const recorded = new Set((rebuilt.lastRevisions.get(NAMESPACES) ?? []).map((r) => r.key));
  const shown = new Set<string>([...SYSTEM_NAMESPACES, ...rebuilt.namespaces]);
  for (const lasts of rebuilt.lastRevisions.values()) {
    for (const r of lasts) {
      const slash = r.key.indexOf('/');
      if (slash > 0) shown.add(r.key.slice(0, slash));
    }
  }
  const synthesised = [...shown].filter((n) => !recorded.has(n)).sort();
  const rev = rebuilt.startRevision;
  const createdAt = rebuilt.timeline.length > 0 ? rebuilt.timeline.times[0]! : now;
  for (const name of synthesised) {
    const system = (SYSTEM_NAMESPACES as readonly string[]).includes(name);
    const meta: CreatedMeta = { uid: stableUid(`namespace/${name}`), resourceVersion: String(rev), createdAt, manager: system ? 'kube-apiserver' : 'kubetape' };
    add(rebuilt, NAMESPACES, name, namespaceJson(name, meta), rev, createdAt);
  }
  return { recorded: [...recorded].sort(), synthesised };
}

function add(rebuilt: Reconstruction, resource: string, key: string, json: string, rev: number, at: number): void {
  const lasts = rebuilt.lastRevisions.get(resource) ?? rebuilt.lastRevisions.set(resource, []).get(resource)!;
  lasts.push(new RecordedRevision(rev, key, new MadeObject(json), false, at, 'made'));
}
