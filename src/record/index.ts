import { existsSync, rmSync } from 'node:fs';
import { FaultInjector, type FaultsOption } from '../faults';
import type { AdminApi } from '../http/admin';
import { DEFAULT_LISTEN } from '../http/listen';
import { serverOptions, startModeServer, type ServerOptions } from '../http/mode-server';
import type { WriterBackendKind } from '../recording/writer/writer-backend';
import type { WriterStats } from '../recording/writer/writer-protocol';
import { RecordingQueue } from '../recording/writer/recording-queue';
import { Passthrough } from '../upstream/passthrough';
import { CompleteLists } from './complete-lists';
import { recordFaults } from './record-faults';
import { resolveUpstream, type Upstream } from '../upstream/upstream';
import { checkUpstream } from './check-upstream';

export interface RecordOptions extends ServerOptions {
  /** The recording file; created when missing, appended to when it exists. */
  db: string;
  /** Upstream URL without credentials (the client's own Authorization is passed through). Excludes kubeconfig/context. */
  upstream?: string;
  /** Kubeconfig for the upstream and its credentials; default `$KUBECONFIG` or `~/.kube/config`. */
  kubeconfig?: string;
  /** Context in the kubeconfig; default its current context. */
  context?: string;
  /** `HOST:PORT` (port 0 picks a free one); default 127.0.0.1:8001. */
  listen?: ServerOptions['listen'];
  /** Keep Secret `data`/`stringData` in the recording (redacted by default). */
  keepSecrets?: boolean;
  /** Where decoding and SQLite writes run: a worker thread (default) or the proxy's own thread. */
  writer?: WriterBackendKind;
  /**
   * For every resource a client saw only as Tables or PartialObjectMetadata, also list its objects
   * whole, once per scope (the recorder's own requests, marked by User-Agent `kubetape-record/complete`).
   */
  complete?: boolean;
  /** Fault rules: a rules file (YAML/JSON), rule data, or a FaultInjector; also managed at /_kubetape/faults. */
  faults?: FaultsOption;
  /** Ask the upstream for `/version` once at start and warn when it does not answer (the CLI does). */
  checkUpstream?: boolean;
}

export interface RecordServer {
  url: string;
  /** The kubeconfig pointing clients at the proxy: `writeKubeconfig`, or a temporary file removed on close. */
  kubeconfigPath: string;
  admin: AdminApi;
  /** The fault rules (also at /_kubetape/faults): add, list, remove, journal(). */
  faults: FaultInjector;
  /** Commits everything recorded so far, the `complete` listings started so far included (the writer also commits on its own every ~50 ms). */
  flush(): Promise<WriterStats>;
  /** Ends every open exchange, writes what is queued, commits and closes the file. */
  close(): Promise<void>;
}

/** Starts the recording proxy: every request goes to the upstream and into the recording. */
export async function record(options: RecordOptions): Promise<RecordServer> {
  let upstream!: Upstream;
  let queue!: RecordingQueue;
  let completer: CompleteLists | undefined;
  // A file this session creates is removed again when the recorder cannot start (a port in use).
  const created = options.db !== ':memory:' && !existsSync(options.db);
  let started = false;
  const removeUnstarted = () => {
    if (created && !started) for (const suffix of ['', '-wal', '-shm']) rmSync(options.db + suffix, { force: true });
  };
  const server = await startModeServer({
    ...serverOptions(options),
    mode: 'record',
    defaultListen: DEFAULT_LISTEN,
    faults: (log) => FaultInjector.create(options.faults, { mode: 'record', log }),
    async setUp({ log, admin, faults }) {
      upstream = await resolveUpstream(options);
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
        removeUnstarted();
        throw err;
      }
      const passthrough = new Passthrough(upstream, queue, log, recordFaults(faults));
      completer = options.complete ? new CompleteLists(upstream, queue, log) : undefined;
      return {
        request: (req, res) => {
          if (admin.handle(req, res)) return;
          completer?.notice(req, res);
          passthrough.web(req, res);
        },
        upgrade: (req, socket, head) => passthrough.upgrade(req, socket, head),
        async close(stopListening) {
          const ended = passthrough.shutdown();
          await stopListening();
          await ended;
          await completer?.close();
          upstream.close();
          const stats = await queue.close();
          removeUnstarted();
          log.info({ ...stats }, 'recording closed');
        },
      };
    },
  });
  started = true;
  server.admin.add('GET', 'status', () => ({ mode: 'record', url: server.url, db: options.db, upstream: upstream.description, recording: queue.stats }));
  const flush = async () => {
    await completer?.idle();
    return queue.flush();
  };
  server.admin.add('POST', 'flush', flush);
  server.log.info({ url: server.url, upstream: upstream.description, db: options.db }, 'recording');
  if (options.checkUpstream) void checkUpstream(upstream, server.log);
  return {
    url: server.url,
    kubeconfigPath: server.kubeconfigPath,
    admin: server.admin,
    faults: server.faults,
    flush,
    close: server.close,
  };
}
