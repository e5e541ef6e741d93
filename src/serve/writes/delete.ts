/**
 * DELETE of one object, as the seeds' "Resource deletion" and the writes facts describe: gone at
 * once (DELETED, 200 Status) without finalizers; marked (deletionTimestamp, MODIFIED, 200 object)
 * with finalizers, propagation finalizers included; Pods gracefully when scheduled; Namespaces
 * Terminating. Preconditions 409; dry run stores nothing.
 */
import { markCrdForDeletion } from '../../k8s/crd-object';
import { deleteOptionsJson } from '../../k8s/admission-review';
import { parseDeleteOptions, type DeleteOptions } from '../../k8s/write-options';
import { notFound, resourceNotFound } from '../../k8s/status';
import { deleteSuccess, forbidden, writeConflict } from '../../k8s/write-status';
import type { StoredObject } from '../../reconstruct';
import type { Revision } from '../../store/revision';
import type { ResourceRequest } from '../resource-request';
import { admissionOf, admissionRequest, unchangedSince, type Admission, type AdmissionRequest } from './admission-hooks';
import { carryForms } from './custom-conversion';
import { readBody } from './request-body';
import { IMMORTAL_NAMESPACES, type ResourceRules } from './resource-rules';
import { commitDeletion, commitObject, currentObject, currentRevision, finalObject, keyOf, respondJson, respondObject, unstored } from './stored-write';
import { timestamp, type WriteDeps } from './write-deps';
import { writeTarget } from './write-request';
import type { WrittenObject } from './written-object';

type Obj = Record<string, any>;

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';

export async function handleDelete(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  if (ctx.info.subresource) throw resourceNotFound();
  const body = await readBody(ctx.req);
  const options = parseDeleteOptions(ctx.info.query, body);
  const name = ctx.info.name;
  const key = keyOf(ctx, name);
  const admission = admissionOf(ctx, deps);
  for (let attempt = 1; ; attempt++) {
    const current = currentRevision(ctx, deps, key);
    if (!current) throw notFound(ctx.resource.info.resource, name, ctx.resource.info.group);
    const old = currentObject(ctx, current);
    checkPreconditions(ctx, old, options);
    if (ctx.resource.info.group === '' && ctx.resource.info.resource === 'namespaces' && IMMORTAL_NAMESPACES.has(name)) {
      throw forbidden('namespaces', '', name, 'this namespace may not be deleted');
    }
    const admitted = admission && admittedDeleteOptions(ctx, old, options);
    if (admission && admitted) {
      await admitDelete(admission, admissionRequest(ctx, 'DELETE', name, options.dryRun, admitted), old);
      if (!unchangedSince(ctx, deps, key, current, attempt)) continue;
    }
    const outcome = deleteObject(ctx, deps, key, current, old, options);
    if (outcome.gone && !writeTarget(ctx).rules.returnsDeletedObject) {
      respondJson(ctx, 200, deleteSuccess(ctx.resource.info.resource, ctx.resource.info.group, name, old.metadata.uid));
    } else respondObject(ctx, 200, outcome.value);
    return;
  }
}

/**
 * The DeleteOptions a delete's webhooks see, as rest.BeforeDelete leaves them before the store
 * admits the delete: a negative grace period is 1; a Pod's is the one its deletion takes (0 when
 * not scheduled or finished). Undefined when the delete is not admitted at all: a Pod whose
 * graceful deletion is pending and not shortened (the store's finalizeDelete).
 */
export function admittedDeleteOptions(ctx: ResourceRequest, old: Obj, options: DeleteOptions): Obj | undefined {
  const grace = options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0 ? 1 : options.gracePeriodSeconds;
  const seen: DeleteOptions = { ...options, gracePeriodSeconds: grace };
  if (ctx.resource.info.group === '' && ctx.resource.info.resource === 'pods') {
    const meta = (old.metadata ?? {}) as Obj;
    if (meta.deletionTimestamp) {
      const pending = typeof meta.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds < 0 ? 1 : meta.deletionGracePeriodSeconds;
      if (typeof pending === 'number' && pending !== 0 && (grace === undefined || grace >= pending)) return undefined;
    } else {
      const finished = old.status?.phase === 'Failed' || old.status?.phase === 'Succeeded';
      seen.gracePeriodSeconds = !old.spec?.nodeName || finished ? 0 : grace ?? old.spec?.terminationGracePeriodSeconds ?? 0;
    }
  }
  return deleteOptionsJson(seen);
}

/** A delete's admission: the mutating webhooks (which may refuse but not change anything), then the validating ones. */
export async function admitDelete(admission: Admission, request: AdmissionRequest, old: Obj): Promise<void> {
  await admission.mutate(request, undefined, old);
  await admission.validate(request, undefined, old);
}

export function checkPreconditions(ctx: ResourceRequest, old: Obj, options: DeleteOptions): void {
  const { uid, resourceVersion } = options.preconditions;
  const kind = ctx.resource.codec.type.kind;
  const name = old.metadata.name;
  if (uid && uid !== old.metadata.uid) {
    throw writeConflict(kind, '', name, `the UID in the precondition (${uid}) does not match the UID in record (${old.metadata.uid}). The object might have been deleted and then recreated`);
  }
  if (resourceVersion && resourceVersion !== old.metadata.resourceVersion) {
    throw writeConflict(kind, '', name, `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${old.metadata.resourceVersion}). The object might have been modified`);
  }
}

export interface DeleteOutcome {
  /** The object left the store (or would have, in a dry run). */
  gone: boolean;
  /** What a delete answering with the object shows. */
  value: StoredObject;
}

/** Deletes or marks one live object (also each object of a deletecollection). */
export function deleteObject(ctx: ResourceRequest, deps: WriteDeps, key: string, current: Revision<StoredObject>, old: Obj, options: DeleteOptions): DeleteOutcome {
  const rules = writeTarget(ctx).rules;
  const now = deps.now();
  const store = (obj: Obj): WrittenObject => (options.dryRun ? unstored(ctx, obj) : commitObject(ctx, deps, key, finalObject(ctx, obj)));
  const gone = (obj: Obj): DeleteOutcome => {
    if (options.dryRun) return { gone: true, value: unstored(ctx, obj) };
    return { gone: true, value: commitDeletion(ctx, deps, key, obj, obj === old ? current.value : undefined) };
  };
  const meta = old.metadata as Obj;
  // The common case needs no copy: an object without finalizers, not yet being deleted, goes at once.
  const { group, resource } = ctx.resource.info;
  const special = (group === '' && (resource === 'namespaces' || resource === 'pods')) || (group === 'apiextensions.k8s.io' && resource === 'customresourcedefinitions');
  if (!special && !meta.deletionTimestamp && propagationFinalizers(meta.finalizers ?? [], options, rules).length === 0) return gone(old);
  const next = structuredClone(old);
  // A custom resource's converted forms are those of the state it marks (only metadata changes).
  if (ctx.resource.custom) carryForms(current.value, next);
  const nextMeta = next.metadata as Obj;

  if (ctx.resource.info.group === '' && ctx.resource.info.resource === 'namespaces') {
    if (meta.deletionTimestamp) return { gone: false, value: current.value };
    nextMeta.deletionTimestamp = timestamp(now);
    next.status = { ...(next.status ?? {}), phase: 'Terminating' };
    if ((next.spec?.finalizers ?? []).length === 0 && !(nextMeta.finalizers?.length > 0)) return gone(next);
    return { gone: false, value: store(next) };
  }

  if (ctx.resource.info.group === 'apiextensions.k8s.io' && ctx.resource.info.resource === 'customresourcedefinitions' && !meta.deletionTimestamp) {
    // The CRD registry keeps the object until its custom resources are deleted (src/serve/crds/crd-controller.ts).
    markCrdForDeletion(next, timestamp(now));
    return { gone: false, value: store(next) };
  }

  const finalizers = propagationFinalizers(meta.finalizers ?? [], options, rules);
  const shorter = shortenedGrace(meta, options);
  if (group === '' && resource === 'pods' && shorter !== undefined) {
    // A shorter grace period moves the deletion earlier; 0 (a kubelet's last DELETE) removes the pod.
    nextMeta.deletionTimestamp = timestamp(Date.parse(meta.deletionTimestamp) + (shorter - meta.deletionGracePeriodSeconds) * 1000);
    nextMeta.deletionGracePeriodSeconds = shorter;
    setFinalizers(nextMeta, finalizers);
    if (shorter > 0 || finalizers.length > 0) return { gone: false, value: store(next) };
    if (options.dryRun) return { gone: true, value: unstored(ctx, next) };
    const marked = commitObject(ctx, deps, key, finalObject(ctx, next));
    return { gone: true, value: commitDeletion(ctx, deps, key, { ...marked.object }) };
  }
  if (meta.deletionTimestamp) {
    if (sameList(finalizers, meta.finalizers ?? [])) return { gone: false, value: current.value };
    setFinalizers(nextMeta, finalizers);
    return { gone: false, value: store(next) };
  }

  if (ctx.resource.info.group === '' && ctx.resource.info.resource === 'pods') {
    const grace = options.gracePeriodSeconds ?? (next.spec?.nodeName ? (next.spec?.terminationGracePeriodSeconds ?? 30) : 0);
    if (next.spec?.nodeName && grace > 0) {
      nextMeta.deletionTimestamp = timestamp(now + grace * 1000);
      nextMeta.deletionGracePeriodSeconds = grace;
      setFinalizers(nextMeta, finalizers);
      return { gone: false, value: store(next) };
    }
    nextMeta.deletionTimestamp = timestamp(now);
    nextMeta.deletionGracePeriodSeconds = 0;
    setFinalizers(nextMeta, finalizers);
    if (finalizers.length > 0) return { gone: false, value: store(next) };
    if (options.dryRun) return { gone: true, value: unstored(ctx, next) };
    const marked = commitObject(ctx, deps, key, finalObject(ctx, next));
    const deleted = commitDeletion(ctx, deps, key, { ...marked.object });
    return { gone: true, value: deleted };
  }

  if (finalizers.length === 0) return gone(old);
  nextMeta.deletionTimestamp = timestamp(now);
  nextMeta.deletionGracePeriodSeconds = 0;
  setFinalizers(nextMeta, finalizers);
  if (typeof nextMeta.generation === 'number' && nextMeta.generation > 0) nextMeta.generation += 1;
  return { gone: false, value: store(next) };
}

/** The grace period of a delete that shortens a pending graceful deletion (rest.BeforeDelete: only a shorter one is taken), else undefined. */
function shortenedGrace(meta: Obj, options: DeleteOptions): number | undefined {
  const pending = meta.deletionGracePeriodSeconds;
  // A negative grace period counts as 1, as BeforeDelete reads it.
  const grace = options.gracePeriodSeconds === undefined ? undefined : options.gracePeriodSeconds < 0 ? 1 : options.gracePeriodSeconds;
  if (!meta.deletionTimestamp || typeof pending !== 'number' || pending <= 0 || grace === undefined || grace >= pending) return undefined;
  return grace;
}

/** The finalizers after a delete's propagation policy: Foreground and Orphan add theirs and drop the other's. */
function propagationFinalizers(finalizers: string[], options: DeleteOptions, rules: ResourceRules): string[] {
  const policy = options.propagationPolicy ?? (options.orphanDependents === true ? 'Orphan' : options.orphanDependents === false ? 'Background' : undefined);
  if (!policy || !rules.builtin && policy === 'Background') return policy === 'Background' ? finalizers.filter((f) => f !== FOREGROUND && f !== ORPHAN) : finalizers;
  if (policy === 'Foreground') return [...finalizers.filter((f) => f !== ORPHAN && f !== FOREGROUND), FOREGROUND];
  if (policy === 'Orphan') return [...finalizers.filter((f) => f !== ORPHAN && f !== FOREGROUND), ORPHAN];
  return finalizers.filter((f) => f !== FOREGROUND && f !== ORPHAN);
}

function setFinalizers(meta: Obj, finalizers: string[]): void {
  if (finalizers.length > 0) meta.finalizers = finalizers;
  else delete meta.finalizers;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
