/**
 * DELETE on a collection: the objects matching the label and field selectors, each deleted (or
 * marked) as a DELETE of it would; the answer is the list of them as they were before, at the
 * revision of that read (w4-deletecollection-labelselector).
 */
import { checkSupportedFields } from '../../k8s/field-selector';
import { parseDeleteOptions } from '../../k8s/write-options';
import { writeConflict, OBJECT_MODIFIED } from '../../k8s/write-status';
import { parseListOptions } from '../../k8s/list-options';
import type { ResourceRequest } from '../resource-request';
import { fallBack, representation } from '../resource-handlers';
import { selectorFilter } from '../selectors';
import { writeBody } from '../response-body';
import { admissionOf, admissionRequest } from './admission-hooks';
import { admitDelete, admittedDeleteOptions, deleteObject } from './delete';
import { readBody } from './request-body';
import { currentObject } from './stored-write';
import type { WriteDeps } from './write-deps';

/** Admissions of one object before the collection's delete gives up on it changing meanwhile (409). */
const MAX_ATTEMPTS = 5;

export async function handleDeleteCollection(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  const body = await readBody(ctx.req);
  const options = parseDeleteOptions(ctx.info.query, body);
  const listOptions = parseListOptions(ctx.info.query, false);
  checkSupportedFields(listOptions.fieldSelector, ctx.info.apiGroup, ctx.info.resource);
  const rev = deps.store.head;
  const prefix = ctx.resource.namespaced && ctx.info.namespace ? `${ctx.info.namespace}/` : '';
  const matched = ctx.resource.store.list({ rev, prefix, limit: 0, filter: selectorFilter(listOptions, ctx.info.apiGroup, ctx.info.resource) }).items;
  let encoder = representation(ctx, 'list');
  encoder = fallBack(ctx, encoder, matched.map((r) => r.value), 'list');
  const admission = admissionOf(ctx, deps);
  for (const revision of matched) {
    let live = ctx.resource.store.get(revision.key, deps.store.head);
    // Each object's DELETE is admitted with the collection's attributes (no name); the state deleted is the state admitted.
    for (let attempt = 1; admission && live; attempt++) {
      const old = currentObject(ctx, live);
      const admitted = admittedDeleteOptions(ctx, old, options);
      if (!admitted) break;
      await admitDelete(admission, admissionRequest(ctx, 'DELETE', '', options.dryRun, admitted), old);
      const after = ctx.resource.store.get(revision.key, deps.store.head);
      if (after === live) break;
      if (attempt >= MAX_ATTEMPTS) throw writeConflict(ctx.resource.info.resource, ctx.resource.info.group, old.metadata?.name ?? '', OBJECT_MODIFIED);
      live = after;
    }
    if (!live) continue;
    deleteObject(ctx, deps, revision.key, live, currentObject(ctx, live), options);
  }
  writeBody(ctx.req, ctx.res, 200, encoder.list({ resourceVersion: String(rev) }, matched.map((r) => r.value)), encoder.rep.contentType);
}
