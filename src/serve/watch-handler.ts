/**
 * watch, as a v1.26 apiserver with the watch cache answers it: unset/"0" → synthetic ADDED for
 * the current state then changes; N → changes after N; N below the floor → 200 and one ERROR
 * event (410 `too old resource version: N (F)`), then the end; N above the head → nothing until
 * changes pass N or `timeoutSeconds`; watch-list (`sendInitialEvents=true`) → ADDEDs then the
 * BOOKMARK annotated `k8s.io/initial-events-end`. Bookmarks when asked, at the set interval.
 */
import { checkSupportedFields } from '../k8s/field-selector';
import { parseListOptions } from '../k8s/list-options';
import { planWatch } from '../k8s/read-plan';
import { watchTooOld } from '../k8s/status';
import type { StoredObject } from '../reconstruct';
import type { Revision } from '../store/revision';
import type { Watcher } from '../store/watcher';
import { watchErrorFrame } from '../wire/watch-error-frame';
import { resolveRead } from './resolve-read';
import type { ResourceRequest } from './resource-request';
import { representation, withoutProtobuf } from './resource-handlers';
import { hasPartialObjects, partialListWarning, warnPartial } from './partial-warning';
import { selectorFilter } from './selectors';
import { WatchStream, writeWatchHead } from './watch-stream';
import { noteAccess } from '../http/access-log';
import { inChunk } from '../http/response-chunks';

export async function handleWatch(ctx: ResourceRequest): Promise<void> {
  const { res, info, resource } = ctx;
  let encoder = representation(ctx, 'watch');
  const options = parseListOptions(info.query, true);
  checkSupportedFields(options.fieldSelector, info.apiGroup, info.resource);
  const plan = planWatch(options);
  const prefix = resource.namespaced && info.namespace ? `${info.namespace}/` : '';
  const selectors = selectorFilter(options, info.apiGroup, info.resource);
  const name = info.name;
  const filter = name ? (r: Revision<StoredObject>) => r.name === name && (!selectors || selectors(r)) : selectors;
  const store = resource.store;

  let start: number;
  let initial: Revision<StoredObject>[] = [];
  if (plan.initial === 'none' && plan.from > 0) {
    start = plan.from;
    if (store.isTooOld(start)) {
      const contentType = encoder.rep.contentType;
      writeWatchHead(res, contentType);
      const gone = new WatchStream(res, { contentType, timeoutMs: ctx.watchTimeoutMs, guard: ctx.watchGuard(contentType), onClose: () => {} });
      gone.write(watchErrorFrame(contentType, watchTooOld(String(start), String(store.floor))));
      gone.end();
      return;
    }
  } else {
    start = await resolveRead(plan.read, ctx.read());
    if (plan.initial !== 'none') initial = store.snapshot(start, prefix).filter((r) => !filter || filter(r));
  }
  if (encoder.rep.format === 'protobuf' && !encoder.supports(initial.map((r) => r.value))) {
    // JSON-recorded objects: a protobuf watch falls back to JSON when the client accepts it.
    encoder = withoutProtobuf(ctx, 'watch');
  }

  if (hasPartialObjects(resource.info)) {
    // The objects the watch starts from (sent as ADDED, or whose later events it carries).
    const state = plan.initial !== 'none' ? initial : store.snapshot(Math.max(start, store.floor), prefix).filter((r) => !filter || filter(r));
    warnPartial(res, partialListWarning(resource.info, encoder.rep, state.map((r) => r.value)));
  }
  noteAccess(ctx.req, { resourceVersion: String(start) });
  writeWatchHead(res, encoder.rep.contentType);
  let first = true;
  /** Subscribed once the initial state is out; the stream may close before that (a fault, a client gone). */
  let watcher: Watcher<StoredObject> | undefined;
  let stopOnRemoval: (() => void) | undefined;
  /**
   * `cached`: a change fanned out to many watchers is encoded once, laid out inside its HTTP chunk
   * (inChunk) so that each response writes the same bytes; the initial state is not kept.
   */
  const send = (type: string, object: Revision<StoredObject>, change: Revision<StoredObject>, cached = true) => {
    if (!encoder.supportsOne(object.value)) return; // an object this representation cannot carry
    const isFirst = first;
    first = false;
    if (object.rev !== change.rev) {
      // Leaving the selector: the previous state, stamped with this change's revision (encoded once per change).
      const stamped = () => inChunk(encoder.event(type, object.value.withResourceVersion(String(change.rev)), isFirst));
      stream.write(change.frame(encoder.eventKey(type, isFirst, true), stamped), String(change.rev));
      return;
    }
    if (!cached) return stream.write(encoder.event(type, object.value, isFirst), String(change.rev));
    const encode = () => inChunk(encoder.event(type, object.value, isFirst));
    stream.write(change.frame(encoder.eventKey(type, isFirst), encode), String(change.rev));
  };
  const stream: WatchStream = new WatchStream(res, {
    contentType: encoder.rep.contentType,
    guard: ctx.watchGuard(encoder.rep.contentType),
    // timeoutSeconds=0 is no timeout: the server's own (the apiserver treats 0 as unset).
    timeoutMs: options.timeoutSeconds ? options.timeoutSeconds * 1000 : ctx.watchTimeoutMs,
    bookmarkIntervalMs: options.allowWatchBookmarks ? ctx.bookmarkIntervalMs : undefined,
    // The watch cache sends a bookmark only once its revision has passed the watch's start.
    bookmark: () => (ctx.read().store.head > start || plan.initial === 'synthetic' ? encoder.bookmark(String(ctx.read().store.head), false) : undefined),
    onClose: () => {
      if (watcher) store.unwatch(watcher);
      stopOnRemoval?.();
    },
  });
  // A custom resource's watches end when its CRD is deleted.
  stopOnRemoval = resource.custom?.onRemoved(() => stream.end());
  for (const r of initial) send('ADDED', r, r, false);
  if (plan.initial === 'watch-list' && options.allowWatchBookmarks) stream.write(encoder.bookmark(String(start), true), String(start));
  if (stream.ended) return;
  watcher = store.watch({ prefix, filter, after: start, deliver: (type, object, change) => {
      if (ctx.watchEvent(change)) send(type, object, change);
    },
  });
  for (const change of store.changesSince(Math.max(start, store.floor))) watcher.offer(change);
  if (stream.ended) store.unwatch(watcher);
}
