import type { Random } from '../../k8s/names';
import type { StoredObject } from '../../reconstruct';
import type { Store } from '../../store/store';
import type { ServedResources } from '../served-resources';
import type { Admission } from './admission';
import type { Patchers } from './patchers';

/** What the write handlers need besides the request: the store, the served resources, the seeded generator and server time. */
export interface WriteDeps {
  store: Store<StoredObject>;
  resources: ServedResources;
  /** uids and generated names. */
  random: Random;
  /** Server time (ms since the epoch): creationTimestamp, deletionTimestamp, managedFields time. */
  now(): number;
  /** Patch appliers by content type (merge and JSON patch built in; strategic merge and apply plug in here). */
  patchers: Patchers;
  /** Admission webhooks (none: no webhook is called). */
  admission?: Admission;
}

/** RFC 3339 at second resolution, as metav1.Time serialises. */
export function timestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastTimestamp = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  }
  return lastTimestamp;
}

/** The last second `timestamp` wrote (writes come many a second). */
let lastSecond = NaN;
let lastTimestamp = '';
