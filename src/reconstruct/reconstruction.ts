import type { RawLoader } from '../recording/reader/raw-loader';
import type { RecordedRevision } from './recorded-revision';
import type { SeenResource } from './seen-resource';
import type { Timeline } from './timeline';

/** What reconstruct() makes of a recording: the timeline of revisions and how to read each one. */
export interface Reconstruction {
  /** Reads recorded bytes on demand: the recording must stay open while the store is served. */
  loader: RawLoader;
  /** Every resource the recording mentions, by id (`group/version/resource`). */
  resources: Map<string, SeenResource>;
  timeline: Timeline;
  /** The first revision at which every resource has a complete state: where a moving clock starts. */
  startRevision: number;
  /** The last revision the recording reached: the state `--clock end` serves. */
  endRevision: number;
  /** Each key's last revision (its `prev` chain is its history), by resource id. */
  lastRevisions: Map<string, RecordedRevision[]>;
  /** Namespaces the recorded lists and watches were scoped to. */
  namespaces: Set<string>;
  /**
   * The scopes whose whole state the recording holds at some revision (a complete unfiltered list,
   * or the initial events of an unfiltered watch), by resource id: `''` for all namespaces, `ns/` for one.
   */
  listedWhole: Map<string, Set<string>>;
}
