/**
 * Values of the wrong type in a built-in kind's object, answered as kube-apiserver answers them
 * when its decoder fails (src/schema/decode-type-error.ts finds the error): a create or update
 * body → 400 `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal
 * string into Go struct field DeploymentSpec.spec.replicas of type int32` (transformDecodeError in
 * apiserver's handlers/rest.go), before unknown fields are looked at; a merge or JSON patch whose
 * result does not decode → 422 ` "" is invalid: patch: Invalid value: "<patched object>": json: …`
 * (jsonPatcher.applyPatchToCurrentObject); a strategic merge patch whose result the unstructured
 * converter cannot hold → the same 422 with the converter's message and the patch as `%+v`
 * prints it (applyPatchToObject; src/schema/unstructured-type-error.ts). Custom resources decode
 * into unstructured objects and meet their schema's 422 instead; apply patches are not checked here.
 */
import { aggregateText, invalidField, toCause } from '../../k8s/field-errors';
import { StatusError, failure } from '../../k8s/status';
import { badRequestMessage } from '../../k8s/write-status';
import { decodeTypeError } from '../../schema/decode-type-error';
import { unstructuredTypeError } from '../../schema/unstructured-type-error';
import { builtinSchema } from '../builtin-schema';
import type { ResourceRequest } from '../resource-request';
import { JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH } from './patchers';

type Obj = Record<string, unknown>;

function typeError(ctx: ResourceRequest, obj: Obj, find = decodeTypeError): string | undefined {
  if (ctx.resource.custom || ctx.resource.info.unstructured) return undefined;
  const { apiVersion, kind } = ctx.resource.codec.type;
  const root = builtinSchema().typeOf(apiVersion, kind);
  return root ? find(obj, root) : undefined;
}

/** A decoded create or update body: the 400 of its first wrongly typed value. */
export function checkDecodedFieldTypes(ctx: ResourceRequest, obj: Obj): void {
  if (ctx.resource.custom || ctx.resource.info.unstructured) return;
  checkBodyFieldTypes(ctx.resource.codec.type.apiVersion, ctx.resource.codec.type.kind, obj);
}

/** A decoded body of a built-in kind no resource stores (a review, an Eviction): the 400 of its first wrongly typed value. */
export function checkBodyFieldTypes(apiVersion: string, kind: string, obj: Obj): void {
  const root = builtinSchema().typeOf(apiVersion, kind);
  const message = root ? decodeTypeError(obj, root) : undefined;
  if (message === undefined) return;
  throw badRequestMessage(`${kind} in version "${apiVersion.split('/').pop()}" cannot be handled as a ${kind}: ${message}`);
}

/**
 * A merge-, JSON- or strategic-merge-patched object (`contentType` the patch's): the 422 naming
 * the patch as `patchValue` prints it (the patched object; for a strategic merge, the patch map).
 */
export function checkPatchedFieldTypes(ctx: ResourceRequest, obj: Obj, contentType: string | undefined, patchValue: () => string): void {
  const type = (contentType ?? '').split(';')[0]!.trim();
  if (type !== MERGE_PATCH && type !== JSON_PATCH && type !== STRATEGIC_MERGE_PATCH) return;
  const message = typeError(ctx, obj, type === STRATEGIC_MERGE_PATCH ? unstructuredTypeError : decodeTypeError);
  if (message === undefined) return;
  // errors.NewInvalid with an empty GroupKind and name, as for a strict decoding error of a patch.
  const e = invalidField('patch', patchValue(), message);
  throw new StatusError(failure(422, 'Invalid', ` "" is invalid: ${aggregateText([e])}`, { causes: [toCause(e)] }));
}
