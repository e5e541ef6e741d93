import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { UsageError } from '../errors/usage-error';
import { silentLogger, type Logger } from '../log/logger';
import { withAccessLog } from './access-log';
import { AdminApi } from './admin';
import { writeKubeconfig } from './kubeconfig';
import { HostCheck, parseAcceptHosts } from './host-check';
import { closeServer, listen, parseListen, type ListenAddress } from './listen';
import { guardHandlers, type GuardedHandlers } from './request-guard';

/** How long a client may take to send a request's head, and its whole request (kube-apiserver: 32 s, and 60 s for a request that is not long-running). */
const HEADERS_TIMEOUT_MS = 32_000;
const REQUEST_TIMEOUT_MS = 60_000;

/** What the lifecycle needs of a fault engine (src/faults' FaultInjector): it mounts its admin routes. */
export interface AdminMounted {
  mount(admin: AdminApi): void;
}

/** The options every mode takes, under the same names. */
export interface ServerOptions {
  /** `HOST:PORT` (port 0 picks a free one). */
  listen?: string | ListenAddress;
  /** Write a kubeconfig pointing clients at the server here (default: a temporary file, removed on close). */
  writeKubeconfig?: string;
  logger?: Logger;
  /**
   * Regular expressions (comma-separated, as `kubectl proxy --accept-hosts` takes them) for `Host`
   * names accepted besides the listen address and the loopback names; any other Host is refused (403).
   */
  acceptHosts?: string | readonly string[];
  /** How long a client may take to send its whole request, head and body (default 60 s); a response (a watch) is never cut. */
  requestTimeoutMs?: number;
}

/** The options every mode passes on to the lifecycle unchanged, picked from the mode's own options. */
export function serverOptions(options: ServerOptions): ServerOptions {
  const { listen, writeKubeconfig, logger, acceptHosts, requestTimeoutMs } = options;
  return { listen, writeKubeconfig, logger, acceptHosts, requestTimeoutMs };
}

export interface ModeServerOptions<F extends AdminMounted> extends ServerOptions {
  /** The mode's name: the logger's `component` and the temporary kubeconfig's name. */
  mode: string;
  /** Where to listen when `listen` is not given. */
  defaultListen: string;
  /** Builds the fault engine, before the mode's own set-up (a bad rules file fails first). */
  faults(log: Logger): Promise<F>;
  /** The mode's own set-up, once the faults are mounted: what answers requests and how the mode ends. */
  setUp(context: { log: Logger; admin: AdminApi; faults: F }): Promise<ModeHandlers>;
}

/** A mode inside the shared lifecycle. */
export interface ModeHandlers {
  request: RequestListener;
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * Ends the mode, called once (also when writing the kubeconfig failed): `stopListening` closes the server and
   * its connections; the mode orders its own tear-down around it.
   */
  close(stopListening: () => Promise<void>): Promise<void>;
  /** The namespace of the kubeconfig's context (default: `default`). */
  namespace?: string;
}

export interface ModeServer<F> {
  url: string;
  /** The kubeconfig pointing at `url`: `writeKubeconfig`, or a temporary file removed on close. */
  kubeconfigPath: string;
  admin: AdminApi;
  faults: F;
  /** The mode's logger (`component` set). */
  log: Logger;
  /** Closes once: every later call returns the same promise. */
  close(): Promise<void>;
}

/**
 * The server lifecycle the modes share: parse `listen`, build the faults and mount their admin
 * routes, listen (every request in the access log), let the mode set itself up, write the
 * kubeconfig, and close once.
 */
export async function startModeServer<F extends AdminMounted>(options: ModeServerOptions<F>): Promise<ModeServer<F>> {
  const log = (options.logger ?? silentLogger()).child({ component: options.mode });
  const address = typeof options.listen === 'object' ? options.listen : parseListen(options.listen ?? options.defaultListen);
  const hosts = new HostCheck(address.host, parseAcceptHosts(options.acceptHosts));
  const faults = await options.faults(log);
  const admin = new AdminApi();
  faults.mount(admin);
  // Listen before the set-up (a port in use fails before a long store rebuild); requests that
  // arrive meanwhile wait for it. Every request is logged, and passes the Host check first.
  let guarded: GuardedHandlers | undefined;
  let setUpDone!: (m: GuardedHandlers | undefined) => void;
  const ready = new Promise<GuardedHandlers | undefined>((resolve) => (setUpDone = resolve));
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = createServer(
    { requestTimeout, headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout), connectionsCheckingInterval: Math.min(1000, requestTimeout) },
    withAccessLog((req, res) => {
      if (guarded) guarded.request(req, res);
      else void ready.then((g) => (g ? g.request(req, res) : res.destroy()));
    }, log),
  );
  const url = await listen(server, address);
  let mode: ModeHandlers;
  try {
    mode = await options.setUp({ log, admin, faults });
  } catch (err) {
    setUpDone(undefined);
    await closeServer(server);
    throw err;
  }
  const handlers = mode;
  guarded = guardHandlers(mode, hosts, log);
  setUpDone(guarded);
  const upgrade = guarded.upgrade;
  if (upgrade) server.on('upgrade', (req, socket, head) => upgrade(req, socket, head));

  let kubeconfigPath: string | undefined;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await handlers.close(() => (server.listening ? closeServer(server) : Promise.resolve()));
      if (options.writeKubeconfig === undefined && kubeconfigPath) rmSync(kubeconfigPath, { force: true });
    })());

  try {
    kubeconfigPath = options.writeKubeconfig ?? join(tmpdir(), `kubetape-${options.mode}-${process.pid}-${new URL(url).port}.kubeconfig`);
    writeClientKubeconfig(kubeconfigPath, url, handlers.namespace);
  } catch (err) {
    await close();
    throw err;
  }
  return { url, kubeconfigPath, admin, faults, log, close };
}

function writeClientKubeconfig(path: string, url: string, namespace: string | undefined): void {
  try {
    writeKubeconfig(path, url, namespace);
  } catch (err) {
    throw new UsageError(`--write-kubeconfig ${path}: ${(err as Error).message}`);
  }
}
