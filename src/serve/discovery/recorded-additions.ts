/**
 * Resources serve always answers for (events) added to the recorded discovery documents that
 * leave them out, so clients that discover before they ask (kubectl get events) find them.
 * A document is only rewritten when something is added to it; its recorded ETag then goes.
 */
import { encodeJson } from '../response-body';
import { apiGroupList, apiResourceList, aggregatedDiscovery, buildModel } from './discovery-docs';
import { resourceKey, type KnownResource } from './known-resources';
import type { RecordedAnswer, RecordedDiscovery } from './recorded-discovery';

type Obj = Record<string, any>;

export function addToRecorded(recorded: RecordedDiscovery, always: readonly KnownResource[]): void {
  const listed = new Set(recorded.resources().map((r) => resourceKey(r.group, r.version, r.resource)));
  const missing = always.filter((r) => !listed.has(resourceKey(r.group, r.version, r.resource)));
  if (missing.length === 0) return;
  for (const r of missing) {
    const path = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
    rewrite(recorded, recorded.legacy.get(path), (doc) => {
      const entries = apiResourceList(r.group, r.version, [r]).resources as Obj[];
      const list = (doc.resources ?? []) as Obj[];
      const at = list.findIndex((e) => String(e.name) > r.resource);
      list.splice(at < 0 ? list.length : at, 0, ...entries);
      doc.resources = list;
    });
  }
  rewrite(recorded, recorded.legacy.get('/apis'), (doc) => {
    const groups = (doc.groups ?? []) as Obj[];
    for (const g of apiGroupList(buildModel(missing)).groups as Obj[]) {
      if (!groups.some((x) => x.name === g.name)) groups.push(g);
    }
    doc.groups = groups;
  });
  for (const [key, answer] of recorded.aggregated) {
    const [path, version] = key.split(' ') as ['/api' | '/apis', 'v2' | 'v2beta1'];
    rewrite(recorded, answer, (doc) => {
      const items = (doc.items ?? []) as Obj[];
      for (const add of aggregatedDiscovery(buildModel(missing), path, version).items as Obj[]) {
        const item = items.find((i) => (i.metadata?.name ?? '') === (add.metadata.name ?? ''));
        if (!item) {
          items.push(add);
          continue;
        }
        for (const v of add.versions as Obj[]) {
          const existing = ((item.versions ?? []) as Obj[]).find((x) => x.version === v.version);
          if (!existing) (item.versions ??= []).push(v);
          else existing.resources = [...(existing.resources ?? []), ...v.resources].sort((a: Obj, b: Obj) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
        }
      }
      doc.items = items;
    });
  }
}

function rewrite(recorded: RecordedDiscovery, answer: RecordedAnswer | undefined, change: (doc: Obj) => void): void {
  const doc = recorded.json(answer);
  if (!answer || !doc) return;
  const before = JSON.stringify(doc);
  change(doc);
  const after = JSON.stringify(doc);
  if (after === before) return;
  answer.body = Buffer.from(encodeJson(doc));
  answer.headers = answer.headers.filter(([n]) => n.toLowerCase() !== 'etag');
}
