/** What every in-process controller is given and what it offers the registry. */
import type { Logger } from '../../log/logger';
import type { StoredObject } from '../../reconstruct';
import type { Store } from '../../store/store';
import type { ServedResource } from '../served-resources';
import type { ControllerName } from './controller-names';
import type { InProcessClient } from './in-process-client';

export interface ControllerContext {
  store: Store<StoredObject>;
  client: InProcessClient;
  /** Every served resource (namespaced ones for namespace deletion, all of them for owners). */
  resources(): ServedResource[];
  log: Logger;
  /**
   * Whether the state at start is serve's own (the empty cluster): then the controllers give it
   * what they would; a recording's state at start is left as recorded.
   */
  ownsStartState: boolean;
  /** The PEM the `kube-root-ca.crt` ConfigMaps carry. */
  caPem: string;
}

export interface Controller {
  readonly name: ControllerName;
  /** Subscribes to the changes it needs and queues the work the state at start asks for. */
  start(): void;
  /** Resolves once its queue is empty (work that waits on a timer not counted). */
  idle(): Promise<void>;
  /** Work is queued or under way (what `idle` waits for). */
  busy(): boolean;
  stop(): void;
}
