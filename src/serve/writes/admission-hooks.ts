/**
 * Where the write handlers meet admission webhooks (src/serve/admission): the request's
 * attributes, and the webhooks' entry points when any may apply to the resource written.
 */
import type { AdmissionOperation } from '../../k8s/admission-match';
import { statusFor } from '../../k8s/status';
import { writeConflict, OBJECT_MODIFIED } from '../../k8s/write-status';
import { decodeTypeError } from '../../schema/decode-type-error';
import { builtinSchema } from '../builtin-schema';
import { settleAppliedNulls } from './field-validation';
import { admissionView } from './prepare';
import { writeTarget } from './write-request';
import type { StoredObject } from '../../reconstruct';
import type { Revision } from '../../store/revision';
import type { ResourceRequest } from '../resource-request';
import { currentRevision } from './stored-write';
import type { Admission, AdmissionRequest } from './admission';
import type { WriteDeps } from './write-deps';

type Obj = Record<string, any>;

export type { Admission, AdmissionRequest };

/** The webhooks, when any may be called for a write to this request's resource. */
export function admissionOf(ctx: ResourceRequest, deps: WriteDeps): Admission | undefined {
  const admission = deps.admission;
  return admission?.applies(ctx.resource.info.group, ctx.resource.info.resource) ? admission : undefined;
}

export function admissionRequest(ctx: ResourceRequest, operation: AdmissionOperation, name: string, dryRun: boolean, options: Obj | undefined, old?: Obj): AdmissionRequest {
  const { group, version, resource } = ctx.resource.info;
  const isNamespaces = group === '' && resource === 'namespaces';
  return {
    res: ctx.res,
    operation,
    group,
    version,
    resource,
    subresource: ctx.info.subresource,
    kind: ctx.resource.codec.type.kind,
    // A Namespace's own name, from the object on a create (the create handler's `namespace = name`).
    namespace: isNamespaces ? ctx.info.name || name : ctx.resource.namespaced ? ctx.info.namespace : '',
    name,
    dryRun,
    options,
    bearerToken: bearerToken(ctx.req.headers.authorization),
    settle: (obj) => settleMutated(ctx, obj, operation === 'UPDATE' ? old : undefined),
  };
}

/**
 * A webhook's patched object decoded again: for a built-in kind a wrongly typed value is the
 * 500 and fields the kind does not have are dropped; the kind's defaults are applied again.
 */
function settleMutated(ctx: ResourceRequest, obj: Obj, old: Obj | undefined): Obj {
  if (!ctx.resource.custom && !ctx.resource.info.unstructured) {
    const { apiVersion, kind } = ctx.resource.codec.type;
    const root = builtinSchema().typeOf(apiVersion, kind);
    const message = root ? decodeTypeError(obj, root) : undefined;
    if (message !== undefined) throw statusFor(500, message);
    settleAppliedNulls(ctx, obj);
  }
  return admissionView(obj, writeTarget(ctx), old);
}

/**
 * After awaiting admission: true when the object is still at `current`; false to start again
 * (the apiserver's GuaranteedUpdate retries, admission included), the 409 after a few tries.
 */
export function unchangedSince(ctx: ResourceRequest, deps: WriteDeps, key: string, current: Revision<StoredObject> | undefined, attempt: number): boolean {
  if (currentRevision(ctx, deps, key) === current) return true;
  if (attempt < MAX_ADMISSION_ATTEMPTS) return false;
  throw writeConflict(ctx.resource.info.resource, ctx.resource.info.group, ctx.info.name, OBJECT_MODIFIED);
}

const MAX_ADMISSION_ATTEMPTS = 5;

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
