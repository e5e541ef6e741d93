/** src/store: MVCC history per resource, watch log, compaction floor, watcher fan-out. Pure. */
export { Revision, objectKey, CHANGE_TYPES } from './revision';
export type { ChangeType } from './revision';
export { ResourceStore } from './resource-store';
export type { ListQuery, ListPage } from './resource-store';
export { Store } from './store';
export type { StoreOptions } from './store';
export { Watcher, eventFor } from './watcher';
export type { WatchSubscription } from './watcher';
export { WatchLog } from './watch-log';
export { ManualClock, systemClock } from './clock';
export type { Clock } from './clock';
