/**
 * Watch as the watch cache serves it: RV unset/"0" → synthetic ADDED for the current state; N → changes after N;
 * N below the compaction floor → 200 + one ERROR 410 event, then the end; watch-list (sendInitialEvents=true)
 * ends its initial state with the `k8s.io/initial-events-end` BOOKMARK; bookmarks every `bookmarkIntervalMs`.
 */
import type { Ctx, ResourceRequest } from './context';
import type { KObject } from './objects';
import type { StoreEvent } from './store';
import { negotiate, type Target } from './negotiate';
import { parseBool, parseRv, validateListOptions } from './list';
import { bookmarkObject, encodeWatchEvent, PROTOBUF_WATCH, type WatchEventType } from './encode';
import { startStream } from './respond';
import { watchTooOld } from './status';
import { streamFirehose } from './firehose';
import type { Predicate } from './selectors';

export async function serveWatch(ctx: Ctx, r: ResourceRequest, filter: Predicate | undefined): Promise<void> {
  const { query: q, store, res } = ctx;
  validateListOptions(q, true);
  const target = negotiate(ctx.req.headers.accept, { protobuf: r.def.protobuf, watch: true });
  const rvText = q.get('resourceVersion') ?? '';
  const startRv = rvText === '' || rvText === '0' ? undefined : parseRv(rvText);
  const sendInitial = q.get('sendInitialEvents') === null ? startRv === undefined : parseBool(q.get('sendInitialEvents'));
  const watchList = parseBool(q.get('sendInitialEvents'));
  const timeoutText = q.get('timeoutSeconds');
  const timeoutMs = timeoutText && /^[1-9]\d*$/.test(timeoutText) ? Number(timeoutText) * 1000 : undefined;

  startStream(res, target.kind === 'protobuf' ? PROTOBUF_WATCH : 'application/json');
  const firehose = r.def.resource === 'configmaps' && r.namespace ? ctx.settings.firehoses.get(r.namespace) : undefined;
  if (firehose) return streamFirehose(ctx, target, firehose);

  const encodeOpts = { pretty: false, now: ctx.settings.now(), query: q };
  const send = (type: WatchEventType, obj: KObject) => {
    if (!res.writableEnded && !res.destroyed) res.write(encodeWatchEvent(r.def, target, type, obj, { ...encodeOpts, now: ctx.settings.now() }));
  };
  const inScope = (e: StoreEvent) => e.resource === r.def.resource && (!r.namespace || e.namespace === r.namespace) && (!r.name || e.object.metadata?.name === r.name);
  const matches = (o: KObject | undefined) => !!o && (!filter || filter(o));

  if (startRv !== undefined && startRv < store.watchFloor) {
    send('ERROR', watchTooOld(startRv, store.watchFloor));
    res.end();
    return;
  }

  let lastRv = startRv ?? store.head;
  const pending: StoreEvent[] = [];
  let live = false;
  const deliver = (e: StoreEvent) => {
    if (e.rv <= lastRv || !inScope(e)) return;
    lastRv = e.rv;
    const now = matches(e.type === 'DELETED' ? undefined : e.object);
    const before = matches(e.previous);
    if (e.type === 'DELETED') {
      if (matches(e.object)) send('DELETED', e.object);
    } else if (now && before) send('MODIFIED', e.object);
    else if (now) send('ADDED', e.object);
    else if (before) send('DELETED', e.object);
  };
  const unsubscribe = store.subscribe((e) => (live ? deliver(e) : pending.push(e)));

  if (sendInitial) {
    const at = store.head;
    for (const { object } of store.stateAt(r.def.resource, at, r.namespace)) {
      if ((!r.name || object.metadata?.name === r.name) && matches(object)) send('ADDED', object);
    }
    lastRv = Math.max(lastRv, at);
    if (watchList) send('BOOKMARK', bookmarkObject(r.def, at, true));
  } else if (startRv !== undefined) {
    for (const e of store.eventsAfter(r.def.resource, startRv)) deliver(e);
  }
  live = true;
  for (const e of pending.splice(0)) deliver(e);

  const timers: NodeJS.Timeout[] = [];
  if (parseBool(q.get('allowWatchBookmarks'))) {
    timers.push(setInterval(() => send('BOOKMARK', bookmarkObject(r.def, store.bookmarkRv(r.def.resource, lastRv))), ctx.settings.bookmarkIntervalMs));
  }
  const stop = () => {
    ctx.settings.watches.delete(stop);
    unsubscribe();
    for (const t of timers) clearInterval(t);
    if (!res.writableEnded) res.end();
  };
  if (timeoutMs !== undefined) timers.push(setTimeout(stop, timeoutMs));
  ctx.settings.watches.add(stop);
  res.on('close', stop);
  ctx.req.on('close', stop);
}

export type { Target };
