/**
 * `kubetape replay`: answers clients from the recorded exchanges themselves, byte for byte.
 *
 *   const api = await replay({ db: 'recordings/session.db' });
 *   // kubectl --server api.url …, or a client reading api.kubeconfigPath
 *   console.log(api.journal());
 *   await api.close();
 */
import type { Duplex } from 'node:stream';
import { UsageError } from '../errors/usage-error';
import { FaultInjector } from '../faults';
import { replayFaultHooks } from './replay-fault-hooks';
import type { AdminApi } from '../http/admin';
import { serverOptions, startModeServer } from '../http/mode-server';
import type { Logger } from '../log/logger';
import { openRecording } from '../recording/open';
import { recordingReadError } from '../recording/recording-read-error';
import { mapForRandomReads } from '../recording/reader/exchange-reader';
import { ExchangeStore } from './exchange-store';
import { ExchangeIndex } from './exchange-index';
import { ReplayJournal, summaryLine, type JournalEntry, type ReplaySummary } from './replay-journal';
import type { ReplayHooks } from './hooks';
import type { MissForwarder } from './miss-forwarder';
import { startMissProxy } from './miss-proxy';
import { DEFAULT_IGNORED_PARAMS, ON_MISS, type ReplayOptions } from './options';
import { keyOptions } from './request-key';
import { ReplayHandler } from './replay-handler';

export type { ReplayOptions, OnMiss } from './options';
export { ON_MISS, DEFAULT_IGNORED_PARAMS } from './options';
export type { JournalEntry, ReplaySummary } from './replay-journal';
export { summaryLine } from './replay-journal';
export type { ReplayHooks, FrameContext, FrameDecision, RequestContext } from './hooks';

export interface ReplayServer {
  url: string;
  /** The kubeconfig pointing clients at the server: `writeKubeconfig`, or a temporary file removed on close. */
  kubeconfigPath: string;
  /** The `/_kubetape/` admin API (`GET journal`, `GET summary`); other modules may add routes. */
  admin: AdminApi;
  /** The fault rules (also at /_kubetape/faults): add, list, remove, journal(). */
  faults: FaultInjector;
  /** Every request so far with the exchange it matched or why it missed (the most recent: see `journalLimit`, `journalBytes`). */
  journal(): JournalEntry[];
  /** Requests served, misses, recorded exchanges never used — so far. */
  summary(): ReplaySummary;
  /** Stops listening, ends open streams, closes the recording; resolves with the final summary. */
  close(): Promise<ReplaySummary>;
}

export async function replay(options: ReplayOptions): Promise<ReplayServer> {
  const speed = options.speed ?? 1;
  if (!Number.isFinite(speed) || speed < 0) throw new UsageError(`--speed must be a number ≥ 0, got ${options.speed}`);
  const onMiss = options.onMiss ?? 'error';
  if (!ON_MISS.includes(onMiss)) throw new UsageError(`--on-miss must be one of ${ON_MISS.join(', ')}, got ${onMiss}`);
  if (onMiss !== 'proxy' && (options.upstream || options.kubeconfig || options.context)) {
    throw new UsageError('--upstream, --kubeconfig and --context are only for --on-miss proxy');
  }
  let summary!: () => ReplaySummary;
  let journal!: ReplayJournal;
  let final: ReplaySummary | undefined;
  const server = await startModeServer({
    ...serverOptions(options),
    mode: 'replay',
    defaultListen: '127.0.0.1:0',
    faults: (log) => FaultInjector.create(options.faults, { mode: 'replay', log }),
    async setUp({ log, admin, faults }) {
      const db = openRecording(options.db, { readonly: onMiss !== 'proxy' });
      const keys = keyOptions(options.ignoreParams ?? DEFAULT_IGNORED_PARAMS, options.matchHeaders ?? []);
      const started = Date.now();
      let index: ExchangeIndex;
      let store: ExchangeStore;
      try {
        mapForRandomReads(db);
        index = ExchangeIndex.load(db, keys);
        store = new ExchangeStore(db);
      } catch (err) {
        db.close();
        throw recordingReadError(options.db, err);
      }
      log.info({ db: options.db, exchanges: index.size, keys: index.byKey.size, ms: Date.now() - started }, 'recording indexed');

      let forwarder: MissForwarder | undefined;
      try {
        forwarder = onMiss === 'proxy' ? await missForwarder(options, log) : undefined;
      } catch (err) {
        db.close();
        throw err;
      }
      journal = new ReplayJournal(options.journalLimit, options.journalBytes);
      const faultHooks = replayFaultHooks(faults, options.hooks);
      // Planning costs a URL parse per request: skip it while there are no rules (nor hooks of the caller's).
      const hooks: ReplayHooks = options.hooks
        ? faultHooks
        : { onRequest: (ctx) => (faults.size === 0 ? false : faultHooks.onRequest!(ctx)), onFrame: faultHooks.onFrame };
      const handler = new ReplayHandler({ index, store, keyOptions: keys, speed, journal, admin, log, hooks, forwarder });
      summary = () => journal.summary(index.size, handler.cursor.used.size);
      admin.add('GET', 'journal', () => ({ summary: summary(), dropped: journal.dropped, entries: journal.list() }));
      admin.add('GET', 'summary', () => summary());
      return {
        request: (req, res) => handler.handle(req, res),
        upgrade: (req, socket) => {
          const message = `kubetape replay cannot replay upgraded connections (exec, attach, port-forward): ${req.method} ${req.url}`;
          journal.add({ method: req.method ?? 'GET', url: req.url ?? '/', outcome: 'missed', status: 400, message });
          refuseUpgrade(socket, message);
        },
        async close(stopListening) {
          await stopListening();
          await forwarder?.close();
          db.close();
          final = summary();
          log.info(final, summaryLine(final));
        },
      };
    },
  });
  server.log.info({ url: server.url, speed, onMiss }, 'replay listening');

  return {
    url: server.url,
    kubeconfigPath: server.kubeconfigPath,
    admin: server.admin,
    faults: server.faults,
    journal: () => journal.list(),
    summary: () => summary(),
    close: () => server.close().then(() => final!),
  };
}

function missForwarder(options: ReplayOptions, log: Logger): Promise<MissForwarder> {
  if (!options.upstream && !options.kubeconfig && !process.env.KUBECONFIG) {
    log.info('--on-miss proxy without --upstream or --kubeconfig: using ~/.kube/config');
  }
  return startMissProxy({ db: options.db, upstream: options.upstream, kubeconfig: options.kubeconfig, context: options.context, log });
}

function refuseUpgrade(socket: Duplex, message: string): void {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
