/** REST verbs on a resolved resource path: get, list, watch, create, update, patch, delete, deletecollection. */
import YAML from 'yaml';
import type { Ctx, ResourceRequest } from './context';
import type { ObjectWriter } from './writes';
import { negotiate } from './negotiate';
import { checkGetRv, listObjects, parseBool, validateListOptions } from './list';
import { encodeList, encodeObject, type EncodeOptions } from './encode';
import { sendBytes, sendJson } from './respond';
import { fieldSelector, labelSelector, type Predicate } from './selectors';
import { badRequest, methodNotSupported, notFound } from './status';
import { serveWatch } from './watch';
import { serveLog } from './pod-log';
import type { KObject } from './objects';
import { objectFromProtobuf } from './protobuf-json';

function readBody(ctx: Ctx): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    ctx.req.on('data', (c: Buffer) => chunks.push(c));
    ctx.req.on('end', () => resolve(Buffer.concat(chunks)));
    ctx.req.on('error', reject);
  });
}

async function parseBody(ctx: Ctx): Promise<any> {
  const bytes = await readBody(ctx);
  const type = (ctx.req.headers['content-type'] ?? 'application/json').split(';')[0].trim();
  if (type === 'application/vnd.kubernetes.protobuf') return objectFromProtobuf(bytes);
  const raw = bytes.toString('utf8');
  try {
    return type.includes('yaml') ? YAML.parse(raw) : JSON.parse(raw || '{}');
  } catch (e) {
    throw badRequest(`the body of the request was in an unknown format - ${(e as Error).message}`);
  }
}

/** The field manager a write is recorded under: `?fieldManager=`, else the User-Agent's first word. */
function manager(ctx: Ctx): string {
  const fm = ctx.query.get('fieldManager');
  if (fm) return fm;
  const ua = ctx.req.headers['user-agent'] ?? 'unknown';
  return ua.split('/')[0].slice(0, 128);
}

function filterOf(ctx: Ctx): Predicate | undefined {
  const label = labelSelector(ctx.query.get('labelSelector'));
  const field = fieldSelector(ctx.query.get('fieldSelector'));
  if (!label && !field) return undefined;
  return (o: KObject) => (!label || label(o)) && (!field || field(o));
}

const encodeOptions = (ctx: Ctx): EncodeOptions => ({ pretty: ctx.pretty, now: ctx.settings.now(), query: ctx.query });

function answerObject(ctx: Ctx, r: ResourceRequest, code: number, obj: KObject): void {
  if (obj.kind === 'Status') {
    sendJson(ctx.req, ctx.res, code, obj, ctx.pretty);
    return;
  }
  const target = negotiate(ctx.req.headers.accept, { protobuf: r.def.protobuf, watch: false });
  const { body, contentType } = encodeObject(r.def, target, obj, encodeOptions(ctx));
  sendBytes(ctx.req, ctx.res, code, body, contentType);
}

export async function serveResource(ctx: Ctx, r: ResourceRequest, writer: ObjectWriter): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const { def } = r;
  if (r.subresource === 'log' && def.resource === 'pods') return serveLog(ctx, r);
  if (r.subresource && !['status', 'finalize'].includes(r.subresource)) {
    if (['exec', 'attach', 'portforward'].includes(r.subresource)) throw badRequest('Upgrade request required');
    throw notFound(def.resource, def.group, r.name ?? '');
  }
  const ns = def.scope === 'Namespaced' ? r.namespace : undefined;
  const isWatch = parseBool(ctx.query.get('watch'));
  if (method === 'GET' || method === 'HEAD') {
    if (r.name && !isWatch) {
      await checkGetRv(ctx.store, ctx.query, { tooLargeWaitMs: ctx.settings.tooLargeWaitMs });
      const obj = ctx.store.current(def.resource, ns ?? '', r.name);
      if (!obj) throw notFound(def.resource, def.group, r.name);
      return answerObject(ctx, r, 200, obj);
    }
    if (isWatch) return serveWatch(ctx, r, filterOf(ctx));
    validateListOptions(ctx.query, false);
    const target = negotiate(ctx.req.headers.accept, { protobuf: def.protobuf, watch: false });
    const result = await listObjects(ctx.store, def.resource, ns, ctx.query, filterOf(ctx), { tooLargeWaitMs: ctx.settings.tooLargeWaitMs });
    const { body, contentType } = encodeList(def, target, result, encodeOptions(ctx));
    return sendBytes(ctx.req, ctx.res, 200, body, contentType);
  }
  if (method === 'POST' && !r.name) return answerObject(ctx, r, 201, writer.create(def, ns, await parseBody(ctx), manager(ctx)));
  if (method === 'PUT' && r.name) return answerObject(ctx, r, 200, writer.update(def, ns, r.name, await parseBody(ctx), manager(ctx)));
  if (method === 'PATCH' && r.name) {
    const type = ctx.req.headers['content-type'] ?? 'application/merge-patch+json';
    return answerObject(ctx, r, 200, writer.patch(def, ns, r.name, type, await parseBody(ctx), manager(ctx)));
  }
  if (method === 'DELETE' && r.name) {
    const options = await parseBody(ctx).catch(() => ({}));
    return answerObject(ctx, r, 200, writer.remove(def, ns, r.name, options ?? {}));
  }
  if (method === 'DELETE' && !r.name) {
    const filter = filterOf(ctx);
    const deleted = ctx.store.stateAt(def.resource, ctx.store.head, ns).map((e) => e.object).filter((o) => !filter || filter(o));
    for (const o of deleted) writer.remove(def, o.metadata.namespace, o.metadata.name);
    const target = negotiate(ctx.req.headers.accept, { protobuf: def.protobuf, watch: false });
    const { body, contentType } = encodeList(def, target, { resourceVersion: ctx.store.head, items: deleted }, encodeOptions(ctx));
    return sendBytes(ctx.req, ctx.res, 200, body, contentType);
  }
  throw methodNotSupported(def.resource, def.group, method.toLowerCase());
}
