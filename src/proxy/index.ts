import http from 'node:http';
import { FaultInjector, type FaultsOption } from '../faults';
import { UsageError } from '../cli/errors';
import { AdminApi } from '../http/admin';
import { writeKubeconfig } from '../http/kubeconfig';
import { DEFAULT_LISTEN, closeServer, listen, parseListen, type ListenAddress } from '../http/listen';
import { silentLogger, type Logger } from '../log/logger';
import type { WriterBackendKind } from '../recording/writer/writer-backend';
import type { WriterStats } from '../recording/writer/writer-protocol';
import { RecordingQueue } from '../recording/writer/recording-queue';
import { Passthrough } from './passthrough';
import { resolveUpstream } from './upstream';

export interface RecordOptions {
  /** The recording file; created when missing, appended to when it exists. */
  db: string;
  /** Upstream URL without credentials (the client's own Authorization is passed through). Excludes kubeconfig/context. */
  upstream?: string;
  /** Kubeconfig for the upstream and its credentials; default `$KUBECONFIG` or `~/.kube/config`. */
  kubeconfig?: string;
  /** Context in the kubeconfig; default its current context. */
  context?: string;
  /** `HOST:PORT` (port 0 picks a free one); default 127.0.0.1:8001. */
  listen?: string | ListenAddress;
  /** Write a kubeconfig pointing clients at the proxy. */
  writeKubeconfig?: string;
  /** Keep Secret `data`/`stringData` in the recording (redacted by default). */
  keepSecrets?: boolean;
  logger?: Logger;
  /** Where decoding and SQLite writes run: a worker thread (default) or the proxy's own thread. */
  writer?: WriterBackendKind;
  /** Fault rules: a rules file (YAML/JSON), rule data, or a FaultInjector; also managed at /_kubetape/faults. */
  faults?: FaultsOption;
}

export interface RecordServer {
  url: string;
  kubeconfigPath?: string;
  admin: AdminApi;
  /** The fault rules (also at /_kubetape/faults): add, list, remove, journal(). */
  faults: FaultInjector;
  /** Commits everything recorded so far (the writer also commits on its own every ~50 ms). */
  flush(): Promise<WriterStats>;
  /** Ends every open exchange, writes what is queued, commits and closes the file. */
  close(): Promise<void>;
}

/** Starts the recording proxy: every request goes to the upstream and into the recording. */
export async function record(options: RecordOptions): Promise<RecordServer> {
  const log = (options.logger ?? silentLogger()).child({ component: 'record' });
  const address = typeof options.listen === 'object' ? options.listen : parseListen(options.listen ?? DEFAULT_LISTEN);
  const faults = await FaultInjector.create(options.faults, { mode: 'record', log });
  const upstream = await resolveUpstream(options);
  let queue: RecordingQueue;
  try {
    queue = await RecordingQueue.start({
      db: options.db,
      keepSecrets: Boolean(options.keepSecrets),
      log,
      backend: options.writer,
      meta: { tool: 'kubetape', mode: 'record', created_at: new Date().toISOString(), upstream: upstream.description },
    });
  } catch (err) {
    upstream.close();
    throw err;
  }
  const passthrough = new Passthrough(upstream, queue, log, faults);
  const admin = new AdminApi();
  faults.mount(admin);
  const server = http.createServer((req, res) => {
    if (admin.handle(req, res)) return;
    passthrough.web(req, res);
  });
  server.on('upgrade', (req, socket, head) => passthrough.upgrade(req, socket, head));

  let url: string;
  try {
    url = await listen(server, address);
    if (options.writeKubeconfig) writeClientKubeconfig(options.writeKubeconfig, url);
  } catch (err) {
    if (server.listening) await closeServer(server);
    upstream.close();
    await queue.close();
    throw err;
  }
  admin.add('GET', 'status', () => ({ mode: 'record', url, db: options.db, upstream: upstream.description, recording: queue.stats }));
  admin.add('POST', 'flush', () => queue.flush());
  log.info({ url, upstream: upstream.description, db: options.db }, 'recording');

  let closing: Promise<void> | undefined;
  return {
    url,
    kubeconfigPath: options.writeKubeconfig,
    admin,
    faults,
    flush: () => queue.flush(),
    close: () =>
      (closing ??= (async () => {
        const ended = passthrough.shutdown();
        await closeServer(server);
        await ended;
        upstream.close();
        const stats = await queue.close();
        log.info({ ...stats }, 'recording closed');
      })()),
  };
}

function writeClientKubeconfig(path: string, url: string): void {
  try {
    writeKubeconfig(path, url);
  } catch (err) {
    throw new UsageError(`--write-kubeconfig ${path}: ${(err as Error).message}`);
  }
}
