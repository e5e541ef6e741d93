import { ManualClock } from './clock';
import { Revision } from './revision';
import { Store } from './store';
import type { ChangeType } from './revision';

type V = { labels: Record<string, string>; tag: string };

function rev(r: number, key: string, tag: string, labels: Record<string, string> = {}, deleted = false): Revision<V> {
  return new Revision<V>(r, key, { labels, tag }, deleted);
}

function names(items: Revision<V>[]): string[] {
  return items.map((i) => `${i.key}@${i.rev}`);
}

describe('Store', () => {
  function fixture() {
    const clock = new ManualClock(1000);
    const store = new Store<V>({ clock });
    store.resource('cm', 100);
    for (let i = 1; i <= 30; i++) store.load('cm', rev(i, `tx/cm-${String(i).padStart(2, '0')}`, 'v1'));
    store.load('cm', rev(40, 'other/x', 'v1'));
    store.advanceHead(100);
    return { clock, store, cm: store.find('cm')! };
  }

  it('pages a consistent snapshot with etcd-like remaining counts', () => {
    const { store, cm } = fixture();
    const p1 = cm.list({ rev: 100, prefix: 'tx/', limit: 5 });
    expect(names(p1.items)).toEqual(['tx/cm-01@1', 'tx/cm-02@2', 'tx/cm-03@3', 'tx/cm-04@4', 'tx/cm-05@5']);
    expect(p1.lastKey).toBe('tx/cm-05');
    expect(p1.remaining).toBe(25);
    // Changes after the snapshot do not show in later pages read at the same revision.
    store.apply([{ resource: 'cm', revision: rev(101, 'tx/cm-06', 'v2') }]);
    store.apply([{ resource: 'cm', revision: rev(102, 'tx/cm-07', 'gone', {}, true) }]);
    const p2 = cm.list({ rev: 100, prefix: 'tx/', start: 'tx/cm-05\u0000', limit: 5 });
    expect(names(p2.items)).toEqual(['tx/cm-06@6', 'tx/cm-07@7', 'tx/cm-08@8', 'tx/cm-09@9', 'tx/cm-10@10']);
    expect(p2.remaining).toBe(20);
    const last = cm.list({ rev: 100, prefix: 'tx/', start: 'tx/cm-25\u0000', limit: 5 });
    expect(last.items).toHaveLength(5);
    expect(last.lastKey).toBeUndefined();
    expect(last.remaining).toBeUndefined();
    const now = cm.list({ rev: store.head, prefix: 'tx/', limit: 0 });
    expect(now.items).toHaveLength(29);
    expect(now.items[5]!.value.tag).toBe('v2');
  });

  it('has no remaining count with a filter, and still says more', () => {
    const { cm } = fixture();
    const page = cm.list({ rev: 100, prefix: '', limit: 2, filter: (r) => r.key.endsWith('0') || r.key.endsWith('x') });
    expect(names(page.items)).toEqual(['other/x@40', 'tx/cm-10@10']);
    expect(page.lastKey).toBe('tx/cm-10');
    expect(page.remaining).toBeUndefined();
  });

  it('compaction raises the floor, forgets superseded revisions and old deletions', () => {
    const { store, cm } = fixture();
    store.apply([{ resource: 'cm', revision: rev(101, 'tx/cm-01', 'v2') }]);
    store.apply([{ resource: 'cm', revision: rev(102, 'tx/cm-02', 'v1', {}, true) }]);
    store.apply([{ resource: 'cm', revision: rev(103, 'tx/cm-01', 'v3') }]);
    expect(cm.isTooOld(99)).toBe(true);
    expect(cm.isTooOld(100)).toBe(false);
    expect(cm.get('tx/cm-01', 101)!.value.tag).toBe('v2');
    expect(store.compact(102)).toBe(102);
    expect(cm.isTooOld(101)).toBe(true);
    expect(cm.isTooOld(102)).toBe(false);
    expect(cm.get('tx/cm-02', 103)).toBeUndefined();
    expect(cm.keyCount).toBe(30);
    expect(cm.get('tx/cm-01', 102)!.value.tag).toBe('v2');
    expect(names(cm.changesSince(102))).toEqual(['tx/cm-01@103']);
    expect(cm.get('tx/cm-01', 103)!.prev!.prev).toBeUndefined();
    // Never backwards, never past the head: the answer is where the floor is.
    expect(store.compact(50)).toBe(102);
    expect(cm.isTooOld(101)).toBe(true);
    expect(store.compact(999)).toBe(103);
  });

  it('a small watch cache evicts history and raises the floor', () => {
    const store = new Store<V>({ clock: new ManualClock(), watchCacheSize: 2 });
    store.resource('cm', 10);
    for (let i = 11; i <= 15; i++) store.apply([{ resource: 'cm', revision: rev(i, 'a', `v${i}`) }]);
    const cm = store.find('cm')!;
    expect(cm.floor).toBe(13);
    expect(names(cm.changesSince(13))).toEqual(['a@14', 'a@15']);
  });

  it('watchers see selector transitions as the apiserver sends them', () => {
    const { store, cm } = fixture();
    const seen: string[] = [];
    cm.watch({
      prefix: 'tx/',
      after: 100,
      filter: (r) => r.value.labels.app === 'web',
      deliver: (type: ChangeType, object, change) => seen.push(`${type} ${object.key}@${object.rev}/${change.rev} ${object.value.tag}`),
    });
    store.apply([{ resource: 'cm', revision: rev(101, 'tx/cm-01', 'a', { app: 'web' }) }]);
    store.apply([{ resource: 'cm', revision: rev(102, 'tx/cm-01', 'b', { app: 'web' }) }]);
    store.apply([{ resource: 'cm', revision: rev(103, 'tx/cm-01', 'c', { app: 'db' }) }]);
    store.apply([{ resource: 'cm', revision: rev(104, 'other/x', 'd', { app: 'web' }) }]);
    store.apply([{ resource: 'cm', revision: rev(105, 'tx/cm-02', 'e', { app: 'web' }) }]);
    store.apply([{ resource: 'cm', revision: rev(106, 'tx/cm-02', 'e', { app: 'web' }, true) }]);
    expect(seen).toEqual([
      'ADDED tx/cm-01@101/101 a',
      'MODIFIED tx/cm-01@102/102 b',
      'DELETED tx/cm-01@102/103 b',
      'ADDED tx/cm-02@105/105 e',
      'DELETED tx/cm-02@106/106 e',
    ]);
  });

  it('head listeners hear every move; age-based compaction keeps the window', () => {
    const { store, clock, cm } = fixture();
    const heads: number[] = [];
    store.onHead((h) => heads.push(h));
    store.apply([{ resource: 'cm', revision: rev(101, 'tx/cm-01', 'a') }]);
    clock.advance(60_000);
    store.apply([{ resource: 'cm', revision: rev(102, 'tx/cm-01', 'b') }]);
    store.advanceHead(110);
    expect(heads).toEqual([101, 102, 110]);
    expect(store.revisionOlderThan(30_000)).toBe(101);
    store.compact(store.revisionOlderThan(30_000));
    expect(cm.floor).toBe(101);
  });

  it('lists keys created by changes in key order, and forgets compacted deletions among them', () => {
    const clock = new ManualClock(1000);
    const store = new Store<V>({ clock });
    const cm = store.resource('cm', 0);
    store.apply([{ resource: 'cm', revision: rev(1, 'ns/m', 'v1') }]);
    expect(names(cm.list({ rev: 1, prefix: '', limit: 0 }).items)).toEqual(['ns/m@1']);
    let r = 1;
    for (const key of ['ns/z', 'ns/b', 'a/x', 'ns/c']) store.apply([{ resource: 'cm', revision: rev(++r, key, 'v1') }]);
    store.apply([{ resource: 'cm', revision: rev(++r, 'ns/b', 'gone', {}, true) }]);
    expect(names(cm.list({ rev: r, prefix: '', limit: 0 }).items)).toEqual(['a/x@4', 'ns/c@5', 'ns/m@1', 'ns/z@2']);
    store.apply([{ resource: 'cm', revision: rev(++r, 'ns/a', 'v1') }]);
    store.compact(r);
    expect(cm.keyCount).toBe(5);
    expect(names(cm.list({ rev: r, prefix: 'ns/', limit: 2 }).items)).toEqual(['ns/a@7', 'ns/c@5']);
  });
});
