/**
 * The AdmissionReview the apiserver POSTs to a webhook (admission/plugin/webhook/request:
 * CreateV1AdmissionReview, CreateV1beta1AdmissionReview) and its check of the answer
 * (VerifyAdmissionResponse). Pure: the uid comes from the caller.
 */
import type { AdmissionAttributes } from './admission-match';
import { goJsonKind } from './go-json';

type Obj = Record<string, any>;

export interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** A request's attributes as the review carries them. */
export interface ReviewAttributes extends AdmissionAttributes {
  kind: string;
  /** The kind's group/version when it is not the resource's (`autoscaling/v1` for a Scale). */
  kindApiVersion?: string;
  /** The object's name ('' for a create by generateName). */
  name: string;
  dryRun: boolean;
  /** CreateOptions, UpdateOptions, PatchOptions or DeleteOptions (meta.k8s.io/v1), as JSON. */
  options: Obj | undefined;
  userInfo: UserInfo;
}

/** The review body for `version` (`v1` or `v1beta1`), members in the Go structs' order. */
export function admissionReviewRequest(version: string, uid: string, attr: ReviewAttributes): Obj {
  const [kindGroup, kindVersion] = attr.kindApiVersion ? splitApiVersion(attr.kindApiVersion) : [attr.group, attr.version];
  const gvk = { group: kindGroup, version: kindVersion, kind: attr.kind };
  const gvr = { group: attr.group, version: attr.version, resource: attr.resource };
  const request: Obj = { uid, kind: gvk, resource: gvr };
  if (attr.subresource) request.subResource = attr.subresource;
  request.requestKind = gvk;
  request.requestResource = gvr;
  if (attr.subresource) request.requestSubResource = attr.subresource;
  if (attr.name) request.name = attr.name;
  if (attr.namespace) request.namespace = attr.namespace;
  request.operation = attr.operation;
  request.userInfo = userInfoJson(attr.userInfo);
  request.object = attr.object ?? null;
  request.oldObject = attr.oldObject ?? null;
  request.dryRun = attr.dryRun;
  request.options = attr.options ?? null;
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}

function userInfoJson(user: UserInfo): Obj {
  const out: Obj = {};
  if (user.username) out.username = user.username;
  if (user.uid) out.uid = user.uid;
  if (user.groups?.length) out.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length > 0) out.extra = user.extra;
  return out;
}

/** The type the apiserver's JSON serializer first decodes a body into, to read its apiVersion and kind. */
export const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * Why the apiserver could not decode a webhook's JSON answer into an AdmissionReview (the
 * decoder's error, which follows `failed to call webhook: `), or undefined when it can: the
 * apiVersion/kind probe, then the response's fields in the order they come, as Go's
 * encoding/json reports its first type error. A null leaves a field unset.
 */
export function reviewDecodeError(body: unknown): string | undefined {
  if (body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(body)} into Go value of type ${FIND_KIND_TYPE}`;
  const review = body as Obj;
  for (const key of ['apiVersion', 'kind']) {
    const value = review[key];
    if (value !== undefined && value !== null && typeof value !== 'string') return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(value)} into Go struct field .${key} of type string`;
  }
  const response = review.response;
  if (response === undefined || response === null) return undefined;
  const typeError = (value: unknown, struct: string, field: string, type: string) => `json: cannot unmarshal ${goJsonKind(value)} into Go struct field ${struct}.${field} of type ${type}`;
  if (typeof response !== 'object' || Array.isArray(response)) return typeError(response, 'AdmissionReview', 'response', 'v1.AdmissionResponse');
  for (const [key, value] of Object.entries(response as Obj)) {
    if (value === null) continue;
    const field = `response.${key}`;
    const expected = RESPONSE_FIELDS[key];
    if (expected === 'string' || expected === 'bool') {
      if (typeof value !== (expected === 'bool' ? 'boolean' : 'string')) return typeError(value, 'AdmissionResponse', field, key === 'uid' ? 'types.UID' : key === 'patchType' ? 'v1.PatchType' : expected);
    } else if (expected === 'bytes') {
      if (typeof value !== 'string') return typeError(value, 'AdmissionResponse', field, '[]uint8');
    } else if (expected === 'strings') {
      if (!Array.isArray(value)) return typeError(value, 'AdmissionResponse', field, '[]string');
      const bad = value.find((w) => w !== null && typeof w !== 'string');
      if (bad !== undefined) return typeError(bad, 'AdmissionResponse', field, 'string');
    } else if (expected === 'map') {
      if (typeof value !== 'object' || Array.isArray(value)) return typeError(value, 'AdmissionResponse', field, 'map[string]string');
      const bad = Object.values(value as Obj).find((v) => v !== null && typeof v !== 'string');
      if (bad !== undefined) return typeError(bad, 'AdmissionResponse', field, 'string');
    } else if (expected === 'status') {
      if (typeof value !== 'object' || Array.isArray(value)) return typeError(value, 'AdmissionResponse', field, 'v1.Status');
      for (const [k, v] of Object.entries(value as Obj)) {
        if (v === null) continue;
        if ((k === 'status' || k === 'message' || k === 'reason') && typeof v !== 'string') return typeError(v, 'Status', `${field}.${k}`, k === 'reason' ? 'v1.StatusReason' : 'string');
        if (k === 'code' && !(typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)) {
          return typeof v === 'number' ? `json: cannot unmarshal number ${String(v)} into Go struct field Status.${field}.code of type int32` : typeError(v, 'Status', `${field}.code`, 'int32');
        }
      }
    }
  }
  return undefined;
}

/** The AdmissionResponse fields whose JSON type is checked (others are dropped unread). */
const RESPONSE_FIELDS: Record<string, 'string' | 'bool' | 'bytes' | 'strings' | 'map' | 'status'> = {
  uid: 'string', allowed: 'bool', status: 'status', patch: 'bytes', patchType: 'string', auditAnnotations: 'map', warnings: 'strings',
};

/** What a webhook answered, checked. */
export interface AdmissionResponse {
  allowed: boolean;
  /** The decoded JSON patch (mutating webhooks only), when one was sent. */
  patch?: unknown;
  /** metav1.Status the webhook gave (on a denial: code, message, reason, details). */
  result?: Obj;
  warnings: string[];
}

/**
 * The answer of a webhook to the review of `uid`, or the error text the apiserver puts after
 * "received invalid webhook response: ".
 */
export function verifyAdmissionResponse(body: unknown, version: string, uid: string, mutating: boolean): AdmissionResponse | { invalid: string } {
  const review = body && typeof body === 'object' && !Array.isArray(body) ? (body as Obj) : {};
  const response = review.response;
  if (!response || typeof response !== 'object') return { invalid: 'webhook response was absent' };
  const patch = typeof response.patch === 'string' ? response.patch : '';
  const hasType = response.patchType !== undefined && response.patchType !== null;
  const out: AdmissionResponse = { allowed: response.allowed === true, warnings: Array.isArray(response.warnings) ? response.warnings.filter((w: unknown) => typeof w === 'string') : [] };
  if (response.status && typeof response.status === 'object') out.result = response.status;
  if (version === 'v1beta1') {
    // v1beta1 answers are not checked further; a mutating webhook's patch is a JSON patch whatever its type says.
    if (mutating && patch) out.patch = { type: 'JSONPatch', bytes: Buffer.from(patch, 'base64') };
    return out;
  }
  const gotUid = typeof response.uid === 'string' ? response.uid : '';
  if (gotUid !== uid) return { invalid: `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(gotUid)}` };
  const expected = `admission.k8s.io/${version}, Kind=AdmissionReview`;
  const got = gvkString(review.apiVersion, review.kind);
  if (got !== expected) return { invalid: `expected webhook response of ${expected}, got ${got}` };
  if (mutating) {
    if (patch && !hasType) return { invalid: 'webhook returned response.patch but not response.patchType' };
    if (!patch && hasType) return { invalid: 'webhook returned response.patchType but not response.patch' };
    if (hasType && response.patchType === '') return { invalid: 'webhook returned invalid response.patchType of ""' };
    if (patch) out.patch = { type: response.patchType, bytes: Buffer.from(patch, 'base64') };
  } else {
    if (patch) return { invalid: 'validating webhook may not return response.patch' };
    if (hasType) return { invalid: 'validating webhook may not return response.patchType' };
  }
  return out;
}

/** schema.GroupVersionKind's String(): `group/version, Kind=kind` (`/, Kind=` when empty). */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const group = slash < 0 ? '' : av.slice(0, slash);
  const version = slash < 0 ? av : av.slice(slash + 1);
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/**
 * ToStatusErr: the Status a denial answers — the webhook's own, its code at least 400, status
 * Failure, the message prefixed with who denied it.
 */
export function denialStatus(webhookName: string, result: Obj | undefined): Obj {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const r = result ?? {};
  const status: Obj = { kind: 'Status', apiVersion: 'v1', metadata: r.metadata && typeof r.metadata === 'object' ? r.metadata : {}, status: 'Failure' };
  const message = typeof r.message === 'string' ? r.message : '';
  const reason = typeof r.reason === 'string' ? r.reason : '';
  status.message = message ? `${deniedBy}: ${message}` : reason ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  if (reason) status.reason = reason;
  if (r.details && typeof r.details === 'object') status.details = r.details;
  status.code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  return status;
}

/**
 * The options of a create or update as the review carries them (meta.k8s.io/v1, Go field order);
 * a patch shows UpdateOptions (CreateOptions when it creates), with what those carry over.
 */
export function writeOptionsJson(kind: 'CreateOptions' | 'UpdateOptions', options: { dryRun: boolean; fieldManager?: string; fieldValidation?: string }): Obj {
  const out: Obj = { kind, apiVersion: 'meta.k8s.io/v1' };
  if (options.dryRun) out.dryRun = ['All'];
  if (options.fieldManager) out.fieldManager = options.fieldManager;
  if (options.fieldValidation) out.fieldValidation = options.fieldValidation;
  return out;
}

/** A delete's options as the review carries them (meta.k8s.io/v1 DeleteOptions, Go field order). */
export function deleteOptionsJson(options: { dryRun: boolean; gracePeriodSeconds?: number; propagationPolicy?: string; orphanDependents?: boolean; preconditions: { uid?: string; resourceVersion?: string } }): Obj {
  const out: Obj = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
  if (options.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = options.gracePeriodSeconds;
  const { uid, resourceVersion } = options.preconditions;
  if (uid !== undefined || resourceVersion !== undefined) out.preconditions = { ...(uid !== undefined ? { uid } : {}), ...(resourceVersion !== undefined ? { resourceVersion } : {}) };
  if (options.orphanDependents !== undefined) out.orphanDependents = options.orphanDependents;
  if (options.propagationPolicy !== undefined) out.propagationPolicy = options.propagationPolicy;
  if (options.dryRun) out.dryRun = ['All'];
  return out;
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}
