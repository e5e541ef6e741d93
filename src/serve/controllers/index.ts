/**
 * src/serve/controllers: the in-process controllers serve runs beside its API, in place of the
 * kube-controller-manager a real cluster runs (`--controllers`, all on by default). Each writes
 * through the write pipeline as an internal client; a registry maps names to factories.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mulberry32, seedFromName, uniformInt } from '../../faults/random';
import type { Logger } from '../../log/logger';
import type { StoredObject } from '../../reconstruct';
import type { Store } from '../../store/store';
import type { WriteDeps } from '../writes';
import type { Controller, ControllerContext } from './controller';
import { CONTROLLER_NAMES, type ControllerName } from './controller-names';
import { gcController } from './gc-controller';
import { InProcessClient } from './in-process-client';
import { namespaceController } from './namespace-controller';
import { rootCaController } from './root-ca-controller';
import { selfSignedCaPem } from './self-signed-ca';
import { serviceAccountController } from './service-account-controller';

export { CONTROLLER_NAMES, NO_CONTROLLERS, parseControllers, type ControllerName } from './controller-names';

const REGISTRY: Record<ControllerName, (ctx: ControllerContext) => Controller> = {
  namespace: namespaceController,
  gc: gcController,
  serviceaccount: serviceAccountController,
  'root-ca': rootCaController,
};

export interface RunningControllers {
  readonly names: ControllerName[];
  /** Resolves once every controller's queue is empty. */
  idle(): Promise<void>;
  stop(): void;
}

export interface ControllersDeps {
  store: Store<StoredObject>;
  writes: WriteDeps;
  log: Logger;
  /** serve started without a recording (see ControllerContext.ownsStartState). */
  emptyCluster: boolean;
  /** The CA root-ca publishes (default: one made here, self-signed). */
  caPem?: string;
}

/**
 * The cluster's CA when serve serves plain HTTP: self-signed, its key and serial random, or drawn
 * from `seed` (serve's `--seed`) so that a seeded serve publishes the same certificate every run.
 */
export function clusterCaPem(now: number, seed?: number): string {
  if (seed === undefined) return selfSignedCaPem(now, randomInt(1, 0x7fffffff), randomBytes(32));
  // A stream of its own, so that the CA draws nothing from the generator of names and uids.
  const random = mulberry32((seed ^ seedFromName('kube-root-ca.crt')) >>> 0);
  const key = Buffer.from(Array.from({ length: 32 }, () => uniformInt(random, 0, 255)));
  return selfSignedCaPem(now, uniformInt(random, 1, 0x7fffffff), key);
}

/** Starts the named controllers (in the registry's order) and waits for the work the state at start asks for. */
export async function startControllers(names: ReadonlySet<ControllerName>, deps: ControllersDeps): Promise<RunningControllers> {
  const chosen = CONTROLLER_NAMES.filter((n) => names.has(n));
  const ctx: ControllerContext = {
    store: deps.store,
    client: new InProcessClient(deps.writes),
    resources: () => deps.writes.resources.all(),
    log: deps.log.child({ component: 'controllers' }),
    ownsStartState: deps.emptyCluster,
    caPem: chosen.includes('root-ca') ? (deps.caPem ?? clusterCaPem(deps.writes.now())) : '',
  };
  const running = chosen.map((n) => REGISTRY[n](ctx));
  for (const c of running) c.start();
  // One controller's writes may queue another's work: idle when all are idle at once.
  const idle = async () => {
    do {
      await Promise.all(running.map((c) => c.idle()));
      await new Promise((resolve) => setImmediate(resolve));
    } while (running.some((c) => c.busy()));
  };
  await idle();
  return {
    names: chosen,
    idle,
    stop: () => {
      for (const c of running) c.stop();
    },
  };
}
