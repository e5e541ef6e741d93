/**
 * Between the write handlers and the store: the current state of a key, committing a new state
 * or a deletion as one revision (src/store/commit.ts), and the response in the negotiated
 * representation.
 */
import { objectKey } from '../../store/revision';
import { commitWrite } from '../../store/commit';
import type { Revision } from '../../store/revision';
import type { StoredObject } from '../../reconstruct';
import { orderObject } from '../../k8s/object-order';
import { builtinProtobuf } from '../builtin-protobuf';
import { goJson } from '../../wire/json-spans';
import type { ResourceRequest } from '../resource-request';
import { fallBack, representation } from '../resource-handlers';
import { writeBody } from '../response-body';
import type { WriteDeps } from './write-deps';
import { carryForms, convertedObject, formsOf, storedContent, storedForms, type PendingForms } from './custom-conversion';
import { objectOf, restampedText, WrittenObject } from './written-object';
import { withSortedKeys } from '../../wire/json-object';

type Obj = Record<string, any>;

export function keyOf(ctx: ResourceRequest, name: string): string {
  return objectKey(ctx.resource.namespaced ? ctx.info.namespace : '', name);
}

/** The live revision of `key` at the head, or undefined. */
export function currentRevision(ctx: ResourceRequest, deps: WriteDeps, key: string): Revision<StoredObject> | undefined {
  return ctx.resource.store.get(key, deps.store.head);
}

/** The live state as an object the caller may change, its resourceVersion set from the revision. */
export function currentObject(ctx: ResourceRequest, revision: Revision<StoredObject>): Obj {
  // A custom resource a conversion webhook converted: the form of the request's version.
  const converted = ctx.resource.custom?.conversion ? convertedObject(revision.value, ctx.resource.codec.type.apiVersion) : undefined;
  const obj = converted ?? objectOf(revision.value, ctx.resource.codec.type);
  // A custom resource is stored in its storage version: read in the request's (conversion None).
  if (ctx.resource.custom) obj.apiVersion = ctx.resource.codec.type.apiVersion;
  obj.metadata ??= {};
  obj.metadata.resourceVersion ??= String(revision.rev);
  return obj;
}

/**
 * The live state for reading only (the caller must not change it, nor any value in it): the
 * stored object itself while it is kept (no copy), else what currentObject gives.
 */
export function currentReadOnly(ctx: ResourceRequest, revision: Revision<StoredObject>): Readonly<Obj> {
  const value = revision.value;
  if (value instanceof WrittenObject && !ctx.resource.custom) {
    const kept = value.kept();
    if (kept?.metadata?.resourceVersion !== undefined) return kept;
  }
  return currentObject(ctx, revision);
}

/** The object in the apiserver's key order (custom resources: every key sorted). */
export function finalObject(ctx: ResourceRequest, obj: Obj): Obj {
  const out = ctx.resource.info.unstructured ? (withSortedKeys(obj) as Obj) : orderObject(obj, builtinProtobuf().kindOrder(ctx.resource.info));
  ordered.add(out);
  if (ctx.resource.custom) carryForms(obj, out);
  return out;
}

/**
 * The same object with another resourceVersion, keys in order (an object finalObject ordered and
 * that has a resourceVersion is not ordered again). `json`: goJson of such an object, when the
 * caller has it (the new text is spliced from it).
 */
function withRv(ctx: ResourceRequest, obj: Obj, rev: number, json?: string): WrittenObject {
  const rv = String(rev);
  const copy: Obj = { ...obj, metadata: { ...obj.metadata, resourceVersion: rv } };
  const custom = ctx.resource.custom;
  const forms = custom ? formsOf(obj) : undefined;
  if (forms) return withForms(ctx, storedContent(forms, copy.metadata), forms);
  if (custom && custom.version !== custom.storageVersion) copy.apiVersion = `${custom.group}/${custom.storageVersion}`;
  else if (ordered.has(obj) && obj.metadata?.resourceVersion !== undefined) return new WrittenObject(copy, json === undefined ? undefined : restampedText(json, rv));
  return new WrittenObject(finalObject(ctx, copy));
}

/** A custom resource's stored state from its conversion webhook's forms (`storage`: see storedContent). */
function withForms(ctx: ResourceRequest, storage: Obj, forms: PendingForms): WrittenObject {
  const stored = new WrittenObject(finalObject(ctx, storage));
  stored.forms = storedForms(forms);
  return stored;
}

/** Objects finalObject made (in key order): changing the value of a member they have keeps the order. */
const ordered = new WeakSet<Obj>();

/**
 * Stores `obj` as the key's next state; returns the stored value (resourceVersion = the new
 * revision). `json`: goJson of `obj` when the caller has it (an object finalObject ordered).
 */
export function commitObject(ctx: ResourceRequest, deps: WriteDeps, key: string, obj: Obj, json?: string): WrittenObject {
  let stored!: WrittenObject;
  commitWrite(deps.store, [{ resource: ctx.resource.store.id, key, value: (rev) => (stored = withRv(ctx, obj, rev, json)) }]);
  return stored;
}

/**
 * Stores the key's deletion; the DELETED event carries `last` (the object as last stored) at the
 * new revision. `lastStored`: the stored value `last` was read from, unchanged (its text is
 * reused with the new resourceVersion).
 */
export function commitDeletion(ctx: ResourceRequest, deps: WriteDeps, key: string, last: Obj, lastStored?: StoredObject): WrittenObject {
  let stored!: WrittenObject;
  if (ctx.resource.custom && lastStored) carryForms(lastStored, last);
  const value = (rev: number): WrittenObject => {
    const json = lastStored instanceof WrittenObject && !ctx.resource.custom ? restampedText(lastStored.json!, String(rev)) : undefined;
    if (json === undefined) return withRv(ctx, last, rev);
    return new WrittenObject({ ...last, metadata: { ...last.metadata, resourceVersion: String(rev) } }, json);
  };
  commitWrite(deps.store, [{ resource: ctx.resource.store.id, key, deleted: true, value: (rev) => (stored = value(rev)) }]);
  return stored;
}

/** An object that is not stored (dry run, no-op answers): in key order, as it is. */
export function unstored(ctx: ResourceRequest, obj: Obj): WrittenObject {
  const forms = ctx.resource.custom ? formsOf(obj) : undefined;
  if (forms) return withForms(ctx, storedContent(forms, obj.metadata), forms);
  return new WrittenObject(finalObject(ctx, obj));
}

/** Answers with an object in the negotiated representation (JSON when protobuf cannot be written). */
export function respondObject(ctx: ResourceRequest, code: number, value: StoredObject): void {
  const encoder = fallBack(ctx, representation(ctx, 'object'), [value], 'object');
  writeBody(ctx.req, ctx.res, code, encoder.object(value), encoder.rep.contentType);
}

/** Answers with a JSON value that is no stored object (a Status of success, a list of deleted objects). */
export function respondJson(ctx: ResourceRequest, code: number, value: unknown): void {
  writeBody(ctx.req, ctx.res, code, goJson(value), 'application/json');
}

/** Whether two JSON values have the same JSON text (compared member by member, no text built). */
export function sameObject(a: unknown, b: unknown): boolean {
  return sameJson(a, b);
}

/** JSON.stringify(a) === JSON.stringify(b) for values made of JSON data (no toJSON). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = writtenKeys(a as Obj);
  const kb = writtenKeys(b as Obj);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !sameJson((a as Obj)[ka[i]!], (b as Obj)[kb[i]!])) return false;
  return true;
}

/** The keys JSON.stringify writes, in its order. */
function writtenKeys(o: Obj): string[] {
  const keys = Object.keys(o);
  for (const k of keys) {
    const t = typeof o[k];
    if (t === 'undefined' || t === 'function' || t === 'symbol') return keys.filter((key) => !['undefined', 'function', 'symbol'].includes(typeof o[key]));
  }
  return keys;
}

