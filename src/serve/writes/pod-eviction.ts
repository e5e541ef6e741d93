/**
 * `POST pods/NAME/eviction` (policy/v1 or policy/v1beta1 Eviction), as kube-apiserver v1.26's
 * EvictionREST: a pod that may ignore budgets (Pending, Succeeded, Failed, being deleted) is
 * deleted at once; else the one PodDisruptionBudget covering it is checked and decremented
 * (its status written as the apiserver's loopback client writes it) before the delete. Each
 * delete first marks the pod DisruptionTarget=True (PodDisruptionConditions, on in v1.26), then
 * deletes it as DELETE with the eviction's deleteOptions would. 201 Success Status; the budget's
 * refusals are 429 (src/k8s/eviction-budget.ts); more than one budget is a 500 Status.
 */
import { yaml } from '../../wire/yaml';
import { canIgnoreBudget, coveringBudgets, decrementBudget, moreThanOneBudget, unreadyWithinBudget } from '../../k8s/eviction-budget';
import { setPodCondition } from '../../k8s/pod-binding';
import { notFound } from '../../k8s/status';
import { parseDeleteOptions, parseWriteOptions, type DeleteOptions } from '../../k8s/write-options';
import { badRequestMessage, createdSuccess, methodNotAllowedHere, storageError } from '../../k8s/write-status';
import { isPlainObject } from '../../wire/json-object';
import { decodeEnvelope } from '../../wire/protobuf';
import type { ResourceRequest } from '../resource-request';
import { writeOptionsJson } from '../../k8s/admission-review';
import { admissionOf, admissionRequest } from './admission-hooks';
import { NAMESPACE_MISMATCH } from './create';
import { checkPreconditions, deleteObject } from './delete';
import { prepareUpdate } from './prepare';
import { checkBodyType, decodeObject, mediaType, PROTOBUF_BODY_TYPE, readBody } from './request-body';
import { commitObject, currentObject, currentRevision, finalObject, keyOf, respondJson } from './stored-write';
import { subresourceKind } from './subresource-kind';
import { timestamp, type WriteDeps } from './write-deps';
import { servedKinds, writeTarget } from './write-request';
import { checkBodyFieldTypes } from './field-types';

type Obj = Record<string, any>;

/** The manager of the budget status the eviction writes: kube-apiserver's loopback client. */
const LOOPBACK_MANAGER = 'kube-apiserver';

export async function handleEviction(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  if (ctx.info.verb !== 'create') throw methodNotAllowedHere();
  const body = await readBody(ctx.req);
  let eviction = decodeEviction(ctx, deps, body);
  const name = ctx.info.name;
  const admission = admissionOf(ctx, deps);
  const createOptions = parseWriteOptions('create', ctx.info.query);
  const request = admission && {
    ...admissionRequest(ctx, 'CREATE', name, createOptions.dryRun, writeOptionsJson('CreateOptions', createOptions)),
    kind: 'Eviction', kindApiVersion: String(eviction.apiVersion), settle: (o: Obj) => o,
  };
  if (admission && request) eviction = (await admission.mutate(request, eviction, undefined))!;
  if (eviction.metadata.namespace && eviction.metadata.namespace !== ctx.info.namespace) throw badRequestMessage(NAMESPACE_MISMATCH);
  if ((eviction.metadata.name ?? '') !== name) throw badRequestMessage('name in URL does not match name in Eviction object');
  const options = deleteOptionsOf(ctx, eviction);
  if (admission && request) await admission.validate(request, eviction, undefined);
  const key = keyOf(ctx, name);
  const current = currentRevision(ctx, deps, key);
  if (!current) throw notFound('pods', name);
  const pod = currentObject(ctx, current);
  if (!canIgnoreBudget(pod)) {
    const budgets = budgetsOf(ctx, deps, pod);
    if (budgets.length > 1) return respondJson(ctx, 500, moreThanOneBudget());
    if (budgets.length === 1 && !unreadyWithinBudget(pod, budgets[0]!)) decrement(ctx, deps, budgets[0]!, name, options.dryRun);
  }
  evictPod(ctx, deps, key, options);
  respondJson(ctx, 201, createdSuccess());
}

/** The Eviction body in the version it names (policy/v1 when it names none). */
function decodeEviction(ctx: ResourceRequest, deps: WriteDeps, body: Buffer): Obj {
  const version = bodyApiVersion(mediaType(ctx.req.headers['content-type']), body) === 'policy/v1beta1' ? 'v1beta1' : 'v1';
  const kind = subresourceKind(ctx.resource, 'policy', version, 'Eviction');
  const contentType = checkBodyType(ctx.req.headers['content-type'], kind);
  const eviction = decodeObject(body, contentType, kind, servedKinds(ctx, deps));
  checkBodyFieldTypes(kind.codec.type.apiVersion, 'Eviction', eviction);
  return eviction;
}

/** The apiVersion a JSON, YAML or protobuf body names; undefined when it cannot be read (decodeObject then reports why). */
function bodyApiVersion(type: string, body: Buffer): unknown {
  try {
    if (type === PROTOBUF_BODY_TYPE) return decodeEnvelope(body).apiVersion;
    const value: unknown = type === 'application/yaml' ? yaml().parse(body.toString('utf8')) : JSON.parse(body.toString('utf8'));
    return isPlainObject(value) ? value.apiVersion : undefined;
  } catch {
    return undefined;
  }
}

/** propagateDryRun: the request's dryRun and the body's deleteOptions.dryRun must agree. */
function deleteOptionsOf(ctx: ResourceRequest, eviction: Obj): DeleteOptions {
  const create = parseWriteOptions('create', ctx.info.query);
  const given = eviction.deleteOptions && typeof eviction.deleteOptions === 'object' ? (eviction.deleteOptions as Obj) : {};
  const requested = ctx.info.query.getAll('dryRun');
  const inBody = Array.isArray(given.dryRun) ? (given.dryRun as unknown[]).map(String) : [];
  if (requested.length > 0 && inBody.length > 0 && requested.join('\0') !== inBody.join('\0')) {
    throw storageError(`Non-matching dry-run options in request and content: [${requested.join(' ')}] and [${inBody.join(' ')}]`);
  }
  const options = parseDeleteOptions(new URLSearchParams(), Buffer.from(JSON.stringify({ ...given, dryRun: inBody.length > 0 ? inBody : requested })));
  return { ...options, dryRun: options.dryRun || create.dryRun };
}

/** The PodDisruptionBudgets of the pod's namespace that cover it. */
function budgetsOf(ctx: ResourceRequest, deps: WriteDeps, pod: Obj): Obj[] {
  const pdbs = deps.resources.find('policy', 'v1', 'poddisruptionbudgets');
  if (!pdbs) return [];
  const pdbCtx: ResourceRequest = { ...ctx, resource: pdbs };
  const all = pdbs.store.snapshot(deps.store.head, `${pod.metadata.namespace}/`).map((r) => currentObject(pdbCtx, r));
  return coveringBudgets(all, pod);
}

/** checkAndDecrement, and the budget's new status written through its status subresource (not in a dry run). */
function decrement(ctx: ResourceRequest, deps: WriteDeps, pdb: Obj, podName: string, dryRun: boolean): void {
  const now = deps.now();
  const status = decrementBudget(pdb, podName, dryRun, timestamp(now));
  if (dryRun) return;
  const pdbs = deps.resources.find('policy', 'v1', 'poddisruptionbudgets')!;
  const pdbCtx: ResourceRequest = { ...ctx, resource: pdbs };
  const next = { ...pdb, status };
  const actor = { manager: LOOPBACK_MANAGER, now, random: deps.random };
  const result = prepareUpdate(pdb, next, writeTarget(pdbCtx), actor, { verb: 'update', subresource: 'status' });
  commitObject(pdbCtx, deps, keyOf(pdbCtx, pdb.metadata.name), finalObject(pdbCtx, result));
}

/**
 * addConditionAndDeletePod: the preconditions checked against the live pod, DisruptionTarget=True
 * added to its status (no managedFields entry: storage is written directly), then the delete.
 * A dry run only checks.
 */
function evictPod(ctx: ResourceRequest, deps: WriteDeps, key: string, options: DeleteOptions): void {
  let current = currentRevision(ctx, deps, key)!;
  let pod = currentObject(ctx, current);
  checkPreconditions(ctx, pod, options);
  if (!options.dryRun) {
    const marked = structuredClone(pod);
    marked.status = setPodCondition(marked.status ?? {}, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }, timestamp(deps.now()));
    commitObject(ctx, deps, key, finalObject(ctx, marked));
    current = currentRevision(ctx, deps, key)!;
    pod = currentObject(ctx, current);
    // The precondition on the resourceVersion moves to the pod this eviction just wrote.
    if (options.preconditions.resourceVersion) options = { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion } };
  }
  checkPreconditions(ctx, pod, options);
  deleteObject(ctx, deps, key, current, pod, options);
}
