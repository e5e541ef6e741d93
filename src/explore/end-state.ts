/**
 * The end state of a run: every object the serve holds (events aside), each flattened to
 * `path → value` with what no run reproduces removed (uids, resourceVersions, timestamps,
 * managedFields; a deletionTimestamp only as "set"), grouped by its count key (a generated
 * name by its prefix, so its objects are compared as a group). A value that is an object's uid
 * (a controller records its owner's uid) reads `<uid of KEY>`: uids differ from run to run when
 * the generator is drawn a different number of times, the object they name does not.
 */
import type { ServeServer } from '../serve';
import { countKey } from './run-log';

export type Flat = Record<string, string>;
/** Count key → the objects under it, flattened, in a stable order. */
export type EndState = Record<string, Flat[]>;

const SKIPPED = new Set(['events', 'events.events.k8s.io']);
const DROPPED = new Set(['metadata.uid', 'metadata.resourceVersion', 'metadata.creationTimestamp', 'metadata.managedFields', 'metadata.selfLink']);

/** `uids`: every uid seen in the run → the count key of its object. */
export function endState(api: ServeServer, uids: ReadonlyMap<string, string> = new Map()): EndState {
  const out: EndState = {};
  for (const r of api.status().resources) {
    const resource = r.group ? `${r.resource}.${r.group}` : r.resource;
    if (r.objects === 0 || SKIPPED.has(resource)) continue;
    for (const obj of api.objects(resource)) {
      const meta = obj.metadata ?? {};
      const key = countKey({ resource, namespace: meta.namespace ?? '', name: meta.name ?? '' }, meta);
      (out[key] ??= []).push(flatten(obj, key.endsWith('*'), uids));
    }
  }
  for (const list of Object.values(out)) list.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return out;
}

/** Every object the serve holds, whole, by `resource ns/name` (sorted). */
export function allObjects(api: ServeServer): Record<string, Record<string, any>> {
  const out: Record<string, Record<string, any>> = {};
  for (const r of api.status().resources) {
    if (r.objects === 0) continue;
    const resource = r.group ? `${r.resource}.${r.group}` : r.resource;
    for (const obj of api.objects(resource)) out[`${resource} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}`] = obj;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function flatten(obj: unknown, generated = false, uids: ReadonlyMap<string, string> = new Map()): Flat {
  const out: Flat = {};
  const walk = (v: unknown, path: string) => {
    if (DROPPED.has(path) || /^metadata\.ownerReferences\[\d+\]\.uid$/.test(path)) return;
    if (generated && path === 'metadata.name') return;
    if (path === 'metadata.deletionTimestamp') return void (out[path] = 'set');
    if (Array.isArray(v)) {
      if (v.length === 0) out[path] = '[]';
      v.forEach((x, i) => walk(x, `${path}[${i}]`));
    } else if (v && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 0) out[path] = '{}';
      for (const k of keys) walk((v as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
    } else if (typeof v === 'string' && uids.has(v)) {
      out[path] = `<uid of ${uids.get(v)}>`;
    } else {
      out[path] = JSON.stringify(v);
    }
  };
  walk(obj, '');
  return out;
}
