/** The rebuilt history of a recording (src/reconstruct, as serve rebuilds its store) as a ChangeLog for time travel. */
import type { Db } from '../recording/open';
import { exchangeRows } from '../recording/reader/exchange-rows';
import { reconstruct } from '../reconstruct';
import type { ChangeLog } from './state-at';

export function changeLog(db: Db): ChangeLog {
  const { timeline } = reconstruct(db);
  const resources: string[] = [];
  const resourceIndex = new Map<string, number>();
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const changes: ChangeLog['changes'] = [];
  for (let i = 0; i < timeline.revisions.length; i++) {
    const r = timeline.revisions[i]!;
    const id = displayResource(timeline.resources[i]!);
    let res = resourceIndex.get(id);
    if (res === undefined) resourceIndex.set(id, (res = resources.push(id) - 1));
    let key = keyIndex.get(r.key);
    if (key === undefined) keyIndex.set(r.key, (key = keys.push(r.key) - 1));
    changes.push([timeline.times[i]!, res, key, r.rev, r.deleted ? 1 : 0]);
  }
  changes.sort((a, b) => a[0] - b[0]);
  const watches: ChangeLog['watches'] = exchangeRows(db, { verb: 'watch' }).map((w) => [w.id, w.resource, w.namespace, w.at, w.durationMs === null ? null : w.at + w.durationMs]);
  return { resources, keys, changes, watches };
}

/** `group/version/resource` → `resource` or `resource.group`, as the rest of the UI names resources. */
function displayResource(id: string): string {
  const [group, , resource] = id.split('/');
  return group ? `${resource}.${group}` : resource!;
}
