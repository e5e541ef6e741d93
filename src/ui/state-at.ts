/**
 * Time travel: the objects the store held at an instant, and the watches open then, computed from
 * the rebuilt history's changes in time order. Pure (no Node API): the page runs it for the HTML
 * report, the server for `/api/state`.
 */

/** The rebuilt history, compactly: `changes[i] = [at, resource index, key index, revision, deleted 0|1]`, in time order. */
export interface ChangeLog {
  resources: string[];
  keys: string[];
  changes: Array<[number, number, number, number, number]>;
  /** Added to every change's time: a report stores times relative to it, rounded to the ms (shorter). */
  base?: number;
  /** `[exchange id, resource, namespace, start, end|null]` of every watch. */
  watches: Array<[number, string, string, number, number | null]>;
}

/** Objects listed per view at most (the counts cover all). */
export const STATE_OBJECT_LIMIT = 5000;

export interface StateView {
  at: number;
  /** Changes applied up to `at`, of all. */
  applied: number;
  changes: number;
  resources: Array<{ resource: string; objects: number; namespaces: Array<{ namespace: string; objects: Array<[name: string, rv: number]> }> }>;
  objects: number;
  openWatches: Array<{ id: number; resource: string; namespace: string; since: number }>;
}

export function stateAt(log: ChangeLog, at: number): StateView {
  const live = new Map<number, Map<number, number>>();
  let applied = 0;
  const base = log.base ?? 0;
  for (const [t, res, key, rev, deleted] of log.changes) {
    if (t + base > at) break;
    applied++;
    let keys = live.get(res);
    if (!keys) live.set(res, (keys = new Map()));
    if (deleted) keys.delete(key);
    else keys.set(key, rev);
  }
  let listed = 0;
  let objects = 0;
  const resources: StateView['resources'] = [];
  for (const [res, keys] of [...live].sort((a, b) => log.resources[a[0]]!.localeCompare(log.resources[b[0]]!))) {
    if (keys.size === 0) continue;
    const byNs = new Map<string, Array<[string, number]>>();
    for (const [key, rev] of [...keys].sort((a, b) => log.keys[a[0]]!.localeCompare(log.keys[b[0]]!))) {
      objects++;
      if (listed >= STATE_OBJECT_LIMIT) continue;
      listed++;
      const full = log.keys[key]!;
      const slash = full.indexOf('/');
      const ns = slash < 0 ? '' : full.slice(0, slash);
      const list = byNs.get(ns) ?? [];
      list.push([slash < 0 ? full : full.slice(slash + 1), rev]);
      byNs.set(ns, list);
    }
    resources.push({ resource: log.resources[res]!, objects: keys.size, namespaces: [...byNs].map(([namespace, objs]) => ({ namespace, objects: objs })) });
  }
  const openWatches = log.watches
    .filter(([, , , start, end]) => start <= at && (end === null || end > at))
    .map(([id, resource, namespace, since]) => ({ id, resource, namespace, since }));
  return { at, applied, changes: log.changes.length, resources, objects, openWatches };
}
