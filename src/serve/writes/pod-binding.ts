/**
 * `POST pods/NAME/binding` and `POST bindings` (a namespace's): a scheduler's Binding sets the
 * Pod's spec.nodeName, merges the binding's annotations and sets PodScheduled=True, straight in
 * storage as BindingREST does (no managedFields entry, no Pod validation); 201 with a Success
 * Status. A pod already on a node or being deleted is the 409 on `pods/binding`.
 */
import { aggregateText } from '../../k8s/field-errors';
import { bindingRefusal, boundPod, validatePodBinding } from '../../k8s/pod-binding';
import { notFound, badRequest } from '../../k8s/status';
import { parseWriteOptions } from '../../k8s/write-options';
import { badRequestMessage, createdSuccess, methodNotAllowedHere, storageError, writeConflict } from '../../k8s/write-status';
import type { ResourceRequest } from '../resource-request';
import { writeOptionsJson } from '../../k8s/admission-review';
import { admissionOf, admissionRequest } from './admission-hooks';
import { NAMESPACE_MISMATCH } from './create';
import { checkBodyType, decodeObject, readBody } from './request-body';
import { commitObject, currentObject, currentRevision, finalObject, keyOf, respondJson } from './stored-write';
import { subresourceKind } from './subresource-kind';
import { timestamp, type WriteDeps } from './write-deps';
import { servedKinds } from './write-request';

type Obj = Record<string, any>;

/** `ctx.resource`: pods (the binding subresource) or bindings. */
export async function handleBinding(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  if (ctx.info.verb !== 'create') throw methodNotAllowedHere();
  const pods = deps.resources.find('', 'v1', 'pods');
  if (!pods) throw notFound('pods', ctx.info.name);
  const podCtx: ResourceRequest = { ...ctx, resource: pods };
  const bindingKind = subresourceKind(pods, '', 'v1', 'Binding');
  const contentType = checkBodyType(ctx.req.headers['content-type'], bindingKind);
  const body = await readBody(ctx.req);
  const options = parseWriteOptions('create', ctx.info.query);
  let binding = decodeObject(body, contentType, bindingKind, servedKinds(podCtx, deps));
  const admission = admissionOf(ctx, deps);
  const request = admission && { ...admissionRequest(ctx, 'CREATE', ctx.info.name || String(binding.metadata?.name ?? ''), options.dryRun, writeOptionsJson('CreateOptions', options)), kind: 'Binding', kindApiVersion: 'v1', settle: (o: Obj) => o };
  if (admission && request) binding = (await admission.mutate(request, binding, undefined))!;
  const meta = binding.metadata as Obj;
  if (meta.namespace && meta.namespace !== ctx.info.namespace) throw badRequestMessage(NAMESPACE_MISMATCH);
  const bodyName = typeof meta.name === 'string' ? meta.name : '';
  // The bindings resource takes the pod's name from the body.
  const name = ctx.info.subresource === 'binding' ? ctx.info.name : bodyName;
  if (name !== bodyName) throw badRequestMessage('name in URL does not match name in Binding object');
  const errs = validatePodBinding(binding);
  // BindingREST returns the field errors as a plain aggregate: the apiserver's 500 with their text.
  if (errs.length > 0) throw storageError(aggregateText(errs));
  if (name === '') throw badRequest('Name parameter required.');
  if (admission && request) await admission.validate(request, binding, undefined);
  const key = keyOf(podCtx, name);
  const current = currentRevision(podCtx, deps, key);
  if (!current) throw notFound('pods', name);
  const pod = currentObject(podCtx, current);
  checkPodPreconditions(ctx.info.namespace, pod, meta);
  const refusal = bindingRefusal(pod);
  if (refusal) throw writeConflict('pods/binding', '', name, refusal);
  const annotations = meta.annotations && typeof meta.annotations === 'object' ? (meta.annotations as Record<string, string>) : undefined;
  const bound = boundPod(pod, binding.target.name, annotations, timestamp(deps.now()));
  if (!options.dryRun) commitObject(podCtx, deps, key, finalObject(podCtx, bound));
  respondJson(ctx, 201, createdSuccess());
}

/** The binding's uid and resourceVersion are preconditions on the pod (storage's 409 on `pods`). */
function checkPodPreconditions(namespace: string, pod: Obj, meta: Obj): void {
  const name = pod.metadata.name as string;
  const failed = (what: string): Error =>
    writeConflict('pods', '', name, `StorageError: invalid object, Code: 4, Key: /registry/pods/${namespace}/${name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${what}`);
  if (meta.uid && meta.uid !== pod.metadata.uid) throw failed(`UID in precondition: ${meta.uid}, UID in object meta: ${pod.metadata.uid}`);
  if (meta.resourceVersion && meta.resourceVersion !== pod.metadata.resourceVersion) {
    throw failed(`ResourceVersion in precondition: ${meta.resourceVersion}, ResourceVersion in object meta: ${pod.metadata.resourceVersion}`);
  }
}
