/**
 * Patch appliers by request Content-Type: RFC 7386 merge patch (json-merge-patch) and RFC 6902
 * JSON patch (fast-json-patch) are built in; strategic merge and server-side apply need the
 * type's schema and plug in here (`patchers.set('application/strategic-merge-patch+json', …)`).
 * A patch type kube-apiserver knows but nothing here applies is answered 415 with the
 * apiserver's "unknown format" message listing what is accepted.
 */
import { applyPatch, JsonPatchError, type Operation } from 'fast-json-patch';
import { apply as mergePatch } from 'json-merge-patch';
import { goJsonSyntaxError } from '../../k8s/go-json';
import { badRequestMessage, patchRejected, unsupportedBodyType, unsupportedPatchType } from '../../k8s/write-status';
import type { ServedResource } from '../served-resources';

type Obj = Record<string, any>;

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';
/** Every patch type kube-apiserver knows. */
export const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH] as const;

/** What a patcher is given: the current object (a copy it may change; read only for a patcher that `sharesLive`) and the patch bytes. */
export interface PatchInput {
  current: Obj;
  patch: Buffer;
  /** The patch's JSON.parse value when the handler has parsed it already (read only until the patcher has it). */
  json?: unknown;
  /** Filled by patchers whose patch the apiserver prints in its own way in a strict decoding error. */
  report?: PatchReport;
  /** For an apply patch: who applies and how (an apply sets the object's managedFields itself). */
  apply?: ApplyContext;
  /** The resource patched (a custom resource brings its own schema). */
  resource?: ServedResource;
}

export interface PatchReport {
  /**
   * The patch as the 422 of `fieldValidation=Strict` shows it (`patch: Invalid value: "…"`), asked
   * for only when one is answered, before anything after the patcher changes the object.
   */
  strictValue?: () => string;
}

/** An apply patch's manager, `force`, server time and the part of the object the write manages. */
export interface ApplyContext {
  manager: string;
  force: boolean;
  /** RFC 3339, second resolution. */
  time: string;
  scope: 'all' | 'main' | 'status';
  subresource?: string;
}

/**
 * Applies one patch type; returns the patched object or throws the apiserver's StatusError.
 * `sharesLive`: the patcher never changes `current`, and its result is new only along the paths
 * the patch changes, sharing every other subtree with `current`; the handler may then give it
 * the stored object itself (deep-frozen) instead of a copy.
 */
export type Patcher = ((input: PatchInput) => Obj) & { sharesLive?: boolean };

export type Patchers = Map<string, Patcher>;

export function defaultPatchers(): Patchers {
  return new Map<string, Patcher>([
    [MERGE_PATCH, applyMergePatch],
    [JSON_PATCH, applyJsonPatch],
  ]);
}

/** The patcher for a request's Content-Type (parameters dropped; the type matched case-sensitively), or the 415. */
export function patcherFor(patchers: Patchers, contentType: string | undefined): Patcher {
  const type = (contentType ?? '').split(';')[0]!.trim();
  const patcher = patchers.get(type);
  if (patcher) return patcher;
  if ((PATCH_TYPES as readonly string[]).includes(type)) throw unsupportedBodyType(PATCH_TYPES.filter((t) => patchers.has(t)));
  throw unsupportedPatchType();
}

export function applyMergePatch({ current, patch }: PatchInput): Obj {
  const parsed = decodePatch(patch);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequestMessage(`error decoding patch: json: cannot unmarshal ${goKind(parsed)} into Go value of type map[string]interface {}`);
  }
  try {
    return mergePatch(current, parsed) as Obj;
  } catch {
    throw patchRejected();
  }
}

export function applyJsonPatch({ current, patch }: PatchInput): Obj {
  const ops = decodePatch(patch);
  if (ops !== null && !Array.isArray(ops)) {
    throw badRequestMessage(`error decoding patch: json: cannot unmarshal ${goKind(ops)} into Go value of type []handlers.jsonPatchOp`);
  }
  for (const op of ops ?? []) {
    if (op !== null && (typeof op !== 'object' || Array.isArray(op))) {
      throw badRequestMessage(`error decoding patch: json: cannot unmarshal ${goKind(op)} into Go value of type handlers.jsonPatchOp`);
    }
  }
  try {
    // Not in place: the ops may reach parts of `current` shared with the stored state (the fieldsV1 of its managedFields).
    return applyPatch(current, (ops ?? []) as Operation[], true, false).newDocument as Obj;
  } catch (err) {
    if (err instanceof JsonPatchError || err instanceof Error) throw patchRejected();
    throw err;
  }
}

/** The patch body as JSON, or the apiserver's 400 for broken JSON. */
export function decodePatch(patch: Buffer): unknown {
  try {
    return JSON.parse(patch.toString('utf8'));
  } catch {
    // JSON.parse and Go's scanner accept the same texts; the message is Go's.
    throw badRequestMessage(`error decoding patch: ${goJsonSyntaxError(patch) ?? 'unexpected end of JSON input'}`);
  }
}

/** The JSON kind Go's UnmarshalTypeError names. */
export function goKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}
