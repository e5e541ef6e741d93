import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_PREFIX, type AdminApi } from '../http/admin';
import { answerHealth } from '../http/health';
import { statusFor } from '../k8s/status';
import { readBody, sendStatus } from '../http/respond';
import { requestInfo } from '../k8s/request-info';
import type { Logger } from '../log/logger';
import { forClientEncoding } from './content-coding';
import type { ExchangeStore } from './exchange-store';
import { closestCandidates, missMessage } from './explain-miss';
import type { ReplayHooks, RequestContext } from './hooks';
import { IndexCursor, type Match } from './index-cursor';
import type { ExchangeIndex } from './exchange-index';
import type { ReplayJournal, JournalEntry } from './replay-journal';
import type { MissForwarder } from './miss-forwarder';
import { MissLog } from './miss-log';
import { replayMiss } from './miss-status';
import { playback } from './playback';
import { normaliseRequest, type KeyOptions, type NormalisedRequest } from './request-key';

const EMPTY = Buffer.alloc(0);

export interface ReplayHandlerDeps {
  index: ExchangeIndex;
  store: ExchangeStore;
  keyOptions: KeyOptions;
  speed: number;
  journal: ReplayJournal;
  admin: AdminApi;
  log: Logger;
  hooks?: ReplayHooks;
  /** Set for `--on-miss proxy`; otherwise misses are answered with a 404 Status. */
  forwarder?: MissForwarder;
}

/**
 * Answers one request of a replay: admin API → hooks (faults) → match → playback, or a miss.
 * One handler (and so one IndexCursor) per server start.
 */
export class ReplayHandler {
  readonly cursor: IndexCursor;
  private readonly misses: MissLog;

  constructor(private readonly deps: ReplayHandlerDeps) {
    this.cursor = new IndexCursor(deps.index);
    this.misses = new MissLog(deps.log);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.url?.startsWith(ADMIN_PREFIX) && this.deps.admin.handle(req, res)) return;
    this.answer(req, res).catch((err: Error) => {
      this.deps.log.error({ err, method: req.method, url: req.url }, 'replay failed');
      if (!res.headersSent) sendStatus(res, statusFor(500, err.message));
      else res.destroy();
    });
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const ctx = new RequestState(req, res, hasBody(req) ? await readBody(req) : EMPTY);
    const { hooks, journal } = this.deps;

    const hooked = hooks?.onRequest?.(ctx);
    if (hooked === true || (hooked instanceof Promise && (await hooked))) {
      ctx.journalled(journal.add({ method, url, outcome: 'answered', answeredBy: 'hook', status: res.statusCode }));
      return;
    }
    const request = normaliseRequest({ method, url, headers: req.headers, body: ctx.body }, this.deps.keyOptions);
    const match = this.cursor.match(request, url);
    if (method === 'GET' && !request.watch) this.noteList(url, match);

    if (match) {
      const stored = this.deps.store.responseOf(match.exchangeId)!;
      const recorded = forClientEncoding(stored, req.headers['accept-encoding']);
      ctx.journalled(journal.add({
        method, url, outcome: 'matched', exchangeId: match.exchangeId, occurrence: match.occurrence,
        repeated: match.repeated, route: match.route, status: recorded.status ?? undefined,
      }));
      if (recorded !== stored) ctx.note({ decoded: 'gzip (the client does not accept it)' });
      await playback(ctx, { recorded, store: this.deps.store, speed: this.deps.speed, hooks });
      return;
    }
    if (answerHealth(req, res)) {
      ctx.journalled(journal.add({ method, url, outcome: 'answered', answeredBy: 'health', status: 200 }));
      return;
    }
    if (this.deps.forwarder) {
      ctx.journalled(journal.add({ method, url, outcome: 'proxied' }));
      this.deps.forwarder.forward(req, res, ctx.body);
      return;
    }
    this.miss(method, url, request, ctx);
  }

  private miss(method: string, url: string, request: NormalisedRequest, ctx: RequestState): void {
    const { index, store, keyOptions, journal } = this.deps;
    const candidates = closestCandidates(request, url, index, store, keyOptions);
    const message = missMessage(method, url, request, candidates);
    ctx.journalled(journal.add({ method, url, outcome: 'missed', status: 404, message, candidates }));
    this.misses.miss(request.key, { method, url, representation: request.representation, candidates }, message);
    sendStatus(ctx.res, replayMiss(message, candidates));
  }

  /** Tracks what each list returned, for the list-then-watch rule. */
  private noteList(url: string, match: Match | undefined): void {
    if (match) this.cursor.noteList(url, match.exchangeId);
    else if (requestInfo('GET', url).verb === 'list') this.cursor.noteList(url, undefined);
  }
}

/** One request as hooks see it; what they note before its journal entry exists is kept until it does. */
class RequestState implements RequestContext {
  private entry: JournalEntry | undefined;
  private notes: Record<string, unknown> | undefined;

  constructor(readonly req: IncomingMessage, readonly res: ServerResponse, readonly body: Buffer) {}

  note(fields: Record<string, unknown>): void {
    if (this.entry) Object.assign(this.entry, fields);
    else this.notes = Object.assign(this.notes ?? {}, fields);
  }

  journalled(entry: JournalEntry): void {
    this.entry = entry;
    if (this.notes) Object.assign(entry, this.notes);
  }
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
}
