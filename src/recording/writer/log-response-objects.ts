import { decodeBody, type DecodedBody, type DecodedObject } from '../../wire/decode';
import { gunzipSafe } from '../../wire/gzip';
import { decodeEnvelope } from '../../wire/protobuf';
import { forEachField } from '../../wire/protobuf-fields';
import type { ExchangeContext } from './exchange-context';
import type { ObservationRow, RecordingStatements } from './recording-statements';

/** Verbs whose successful responses carry objects for the object log, and how they are seen. */
const SOURCES: Record<string, ObservationRow['source'] | undefined> = {
  get: 'get',
  list: 'list',
  create: 'write',
  update: 'write',
  patch: 'write',
  delete: 'write',
  deletecollection: 'write',
};

/**
 * Decodes a whole (not streamed) response into the object log: list pages into `lists` and one
 * observation per item, gets and write responses into one observation. Returns the decode error,
 * or null. Only successful responses to resource verbs are decoded.
 */
export function logResponseObjects(stmts: RecordingStatements, ctx: ExchangeContext, body: Buffer | null, atMs: number): { error: string | null; observations: number } {
  const { info, head } = ctx;
  const source = SOURCES[info.verb];
  const status = head.status ?? 0;
  if (!source || !body || status < 200 || status >= 300) return { error: null, observations: 0 };
  if (info.subresource && info.subresource !== 'status') return { error: null, observations: 0 };
  let decoded: DecodedBody;
  try {
    const plain = ctx.responseGzip ? gunzipSafe(body) : body;
    if (plain instanceof Error) return { error: `gzip: ${plain.message}`, observations: 0 };
    decoded = decodeBody(ctx.responseContentType, plain);
  } catch (err) {
    return { error: (err as Error).message, observations: 0 };
  }
  // Each row is one object literal, not a spread of the shared fields: a spread per row costs the
  // writer more than the rest of a small GET, and V8 moves such rows to the old generation.
  const { apiGroup, apiVersion, resource } = info;
  const exchangeId = head.id;
  const observe = (seq: number, obj: DecodedObject, src: ObservationRow['source'], event: string | null) =>
    stmts.observation({
      exchangeId, atMs, apiGroup, apiVersion, resource, seq, source: src, event, form: obj.form, kind: obj.kind || null,
      namespace: obj.namespace, name: obj.name, uid: obj.uid || null, rv: obj.resourceVersion || null, encoding: obj.encoding, raw: obj.raw,
    });

  switch (decoded.type) {
    case 'list': {
      const deleted = info.verb === 'deletecollection';
      const itemSource = info.verb === 'list' ? 'list' : deleted ? 'write' : source;
      decoded.items.forEach((item, i) => observe(i, item, itemSource, deleted ? 'DELETED' : null));
      if (info.verb === 'list') {
        const q = info.query;
        const limit = q.get('limit');
        stmts.list({
          exchangeId, atMs, apiGroup, apiVersion, resource, kind: decoded.kind || null, namespace: info.namespace,
          labelSelector: q.get('labelSelector') ?? '', fieldSelector: q.get('fieldSelector') ?? '', requestRv: q.get('resourceVersion'),
          requestRvMatch: q.get('resourceVersionMatch'), requestContinue: q.get('continue'),
          requestLimit: limit !== null && /^\d+$/.test(limit) ? Number(limit) : null,
          rv: decoded.resourceVersion || null, continue: decoded.continue || null, remaining: decoded.remainingItemCount ?? null,
          items: decoded.items.length, encoding: decoded.encoding, columns: decoded.columns ? JSON.stringify(decoded.columns) : null,
        });
      }
      return { error: null, observations: decoded.items.length };
    }
    case 'object': {
      const deleted = info.verb === 'delete' && !pendingFinalizers(decoded.object);
      observe(0, decoded.object, source, deleted ? 'DELETED' : null);
      return { error: null, observations: 1 };
    }
    case 'status': {
      // Some deletes answer a Status (Success) naming what was deleted instead of the object.
      if (info.verb !== 'delete' || decoded.status.status !== 'Success') return { error: null, observations: 0 };
      const details = decoded.status.details ?? {};
      stmts.observation({
        exchangeId, atMs, apiGroup, apiVersion, resource, seq: 0, source: 'write', event: 'DELETED', form: 'object', kind: null,
        namespace: info.namespace, name: details.name ?? info.name, uid: details.uid ?? null, rv: null, encoding: null, raw: null,
      });
      return { error: null, observations: 1 };
    }
    default:
      return { error: null, observations: 0 };
  }
}

/** A delete answered with the object still carrying finalizers: it is only marked for deletion. */
function pendingFinalizers(obj: DecodedObject): boolean {
  try {
    if (obj.encoding === 'json') {
      const meta = (JSON.parse(obj.raw.toString('utf8')) as { metadata?: { finalizers?: unknown[] } }).metadata;
      return Array.isArray(meta?.finalizers) && meta.finalizers.length > 0;
    }
    const typed = decodeEnvelope(obj.raw).raw;
    let found = false;
    forEachField(typed, 0, typed.length, (f) => {
      if (f.no !== 1) return true;
      forEachField(typed, f.start, f.end, (m) => {
        if (m.no === 14) found = true;
      });
      return false;
    });
    return found;
  } catch {
    return false;
  }
}
