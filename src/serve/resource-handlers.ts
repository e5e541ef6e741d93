/**
 * get and list against the store, cell by cell as the seeds' tables and the facts file say:
 * negotiation (406) first, then query decoding (400), validation (422), the resourceVersion
 * rules (410 / 500 / 504), then the body in the negotiated representation.
 */
import { continueAfter } from '../k8s/continue-token';
import { checkSupportedFields } from '../k8s/field-selector';
import { parseGetOptions, parseListOptions } from '../k8s/list-options';
import { planGet, planList } from '../k8s/read-plan';
import { notFound } from '../k8s/status';
import type { StoredObject } from '../reconstruct';
import { objectKey } from '../store/revision';
import { BodyEncoder } from './body-encoder';
import { negotiate, type NegotiationTarget } from './negotiate';
import { partialListWarning, partialObjectWarning, warnPartial } from './partial-warning';
import { resolveRead } from './resolve-read';
import type { ResourceRequest } from './resource-request';
import { selectorFilter } from './selectors';
import { writeBody } from './response-body';
import { noteAccess } from '../http/access-log';

export async function handleGet(ctx: ResourceRequest): Promise<void> {
  const { req, res, info, resource } = ctx;
  let encoder = representation(ctx, 'object');
  const plan = planGet(parseGetOptions(info.query).resourceVersion);
  const rev = await resolveRead(plan, ctx.read());
  const found = resource.store.get(objectKey(resource.namespaced ? info.namespace : '', info.name), rev);
  if (!found) throw notFound(info.resource, info.name, info.apiGroup);
  noteAccess(req, { resourceVersion: String(found.rev) });
  encoder = fallBack(ctx, encoder, [found.value], 'object');
  warnPartial(res, partialObjectWarning(resource.info, encoder.rep, found.key, found.value));
  writeBody(req, res, 200, encoder.object(found.value), encoder.rep.contentType);
}

export async function handleList(ctx: ResourceRequest): Promise<void> {
  const { req, res, info, resource } = ctx;
  let encoder = representation(ctx, 'list');
  const options = parseListOptions(info.query, false);
  checkSupportedFields(options.fieldSelector, info.apiGroup, info.resource);
  const plan = planList(options);
  const prefix = resource.namespaced && info.namespace ? `${info.namespace}/` : '';
  const rev = await resolveRead(plan.read, ctx.read(plan.start));
  const page = resource.store.list({
    rev,
    prefix,
    start: plan.start !== undefined ? prefix + plan.start : undefined,
    limit: plan.limit,
    filter: selectorFilter(options, info.apiGroup, info.resource),
  });
  const values = page.items.map((r) => r.value);
  noteAccess(req, { resourceVersion: String(rev) });
  encoder = fallBack(ctx, encoder, values, 'list');
  warnPartial(res, partialListWarning(resource.info, encoder.rep, values));
  const meta = {
    resourceVersion: String(rev),
    continue: page.lastKey !== undefined ? continueAfter(rev, page.lastKey.slice(prefix.length)) : undefined,
    remainingItemCount: page.remaining,
  };
  writeBody(req, res, 200, encoder.list(meta, values), encoder.rep.contentType);
}

/** Negotiates the response representation (406 when nothing acceptable). */
export function representation(ctx: ResourceRequest, target: NegotiationTarget): BodyEncoder {
  const accept = ctx.req.headers.accept;
  const protobufAvailable = ctx.resource.info.protobuf || (!!accept?.includes('protobuf') && ctx.resource.codec.transcodes);
  const rep = negotiate(accept, { target, protobufAvailable });
  return new BodyEncoder(ctx.resource.codec, rep, ctx.info.query);
}

/** Objects recorded only as JSON asked for as protobuf: JSON when the client also accepts it, else 406. */
export function fallBack(ctx: ResourceRequest, encoder: BodyEncoder, values: readonly StoredObject[], target: NegotiationTarget): BodyEncoder {
  if (encoder.supports(values)) return encoder;
  const json = withoutProtobuf(ctx, target);
  json.check(values);
  return json;
}

/** The representation negotiated as if the resource had no protobuf form (406 when the client accepts nothing else). */
export function withoutProtobuf(ctx: ResourceRequest, target: NegotiationTarget): BodyEncoder {
  const rep = negotiate(ctx.req.headers.accept, { target, protobufAvailable: false });
  return new BodyEncoder(ctx.resource.codec, rep, ctx.info.query);
}
