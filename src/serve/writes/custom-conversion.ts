/**
 * Custom resources of a CRD with a conversion webhook: before a write is stored, the object is
 * converted to the storage version and from it to every other served version (the webhook's
 * answers kept with the stored state), so that reads, lists and watches in any version, which
 * serve answers without waiting, show what the webhook made. Of a converted form, the metadata
 * is always the stored object's but for its labels and annotations (as the apiserver restores it).
 * The objects sent are those the apiserver encodes for etcd: without resourceVersion.
 * A failed conversion to the storage version refuses the write (nothing is stored); a failed
 * conversion from it to another served version is kept as that version's form: the write is
 * stored, as the apiserver stores it, and what reads that version (a get, a list, the write's
 * own answer when made in that version, an update or delete through it) fails with the
 * apiserver's 500 until a later write converts again; a watch in that version gets it as an
 * ERROR event. Objects no write of serve converted (a recording's, or written while the CRD's
 * strategy was None) are served with only apiVersion rewritten.
 */
import { StoredObject } from '../../reconstruct';
import { objectKey } from '../../store/revision';
import { StatusError } from '../../k8s/status';
import { convertObjects } from '../webhooks/conversion-webhook';
import type { ServiceLookup } from '../webhooks/webhook-client';
import type { ResourceRequest } from '../resource-request';
import type { WriteDeps } from './write-deps';
import { objectOf, WrittenObject, type StoredForms } from './written-object';

/** The forms of an object about to be stored: the storage version's object and the other versions' (apiVersion → object, or the failure). */
export interface PendingForms {
  storage: Obj;
  converted: Map<string, Obj | StatusError>;
}

type Obj = Record<string, any>;

/** The forms of objects about to be stored (keyed by the object the write path commits). */
const pending = new WeakMap<Obj, PendingForms>();

/** Whether writes to this resource go through a conversion webhook. */
export function convertsByWebhook(ctx: ResourceRequest): boolean {
  return ctx.resource.custom?.conversion !== undefined;
}

/**
 * Converts `obj` (in the request's version) for the store: to the storage version, and from that
 * to each other served version; remembered for `obj` (see formsOf). Throws the conversion 500.
 */
export async function convertForStore(ctx: ResourceRequest, deps: WriteDeps, obj: Obj): Promise<void> {
  const custom = ctx.resource.custom;
  if (!custom?.conversion) return;
  const conversion = custom.conversion;
  const apiVersion = `${custom.group}/${custom.version}`;
  const storageApiVersion = `${custom.group}/${custom.storageVersion}`;
  const conversionDeps = { services: serviceLookup(deps), random: deps.random };
  const requested = forStorage({ ...obj, apiVersion });
  const storage = apiVersion === storageApiVersion ? requested : (await convertObjects(conversion, conversionDeps, custom.kind, apiVersion, storageApiVersion, [requested]))[0]!;
  const converted = new Map<string, Obj | StatusError>();
  for (const version of custom.servedVersions) {
    const target = `${custom.group}/${version}`;
    if (target === storageApiVersion) continue;
    try {
      converted.set(target, (await convertObjects(conversion, conversionDeps, custom.kind, storageApiVersion, target, [storage]))[0]!);
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      converted.set(target, err);
    }
  }
  pending.set(obj, { storage, converted });
}

/** The forms remembered for an object about to be stored, if any. */
export function formsOf(obj: Obj): PendingForms | undefined {
  return pending.get(obj);
}

/** The forms a stored state keeps: the other versions' objects as text. */
export function storedForms(forms: PendingForms): StoredForms {
  const converted = new Map<string, string | StatusError>();
  for (const [apiVersion, form] of forms.converted) converted.set(apiVersion, form instanceof StatusError ? form : JSON.stringify(form));
  return { converted };
}

/** Remembers `forms` for `obj` too (an ordered copy of the object, a marked copy of a stored state). */
export function carryForms(from: Obj | StoredObject, to: Obj): void {
  if (from instanceof WrittenObject) {
    if (!from.forms) return;
    // The stored object is the storage version's form.
    const converted = new Map<string, Obj | StatusError>();
    for (const [apiVersion, form] of from.forms.converted) converted.set(apiVersion, typeof form === 'string' ? (JSON.parse(form) as Obj) : form);
    pending.set(to, { storage: from.readOnly() as Obj, converted });
    return;
  }
  const forms = from instanceof StoredObject ? undefined : pending.get(from);
  if (forms) pending.set(to, forms);
}

/**
 * The object of a stored state in `apiVersion` when a conversion webhook made that form: the
 * converted content, the stored metadata with the form's labels and annotations. Throws the
 * conversion's 500 when the webhook failed for that version.
 */
export function convertedObject(value: StoredObject, apiVersion: string): Obj | undefined {
  const form = formIn(value, apiVersion);
  if (form instanceof StatusError) throw form;
  if (!form) return undefined;
  const meta: Obj = { ...(value as WrittenObject).readOnly().metadata };
  for (const field of ['labels', 'annotations']) {
    if (form.metadata?.[field] === undefined) delete meta[field];
    else meta[field] = form.metadata[field];
  }
  return { ...form, metadata: structuredClone(meta) };
}

/**
 * The object to store for `forms`: the storage version's content, `metadata` but for the labels
 * and annotations the conversion to the storage version gave (what the apiserver writes to etcd).
 */
export function storedContent(forms: PendingForms, metadata: Obj): Obj {
  const meta: Obj = { ...metadata };
  for (const field of ['labels', 'annotations']) {
    if (forms.storage.metadata?.[field] === undefined) delete meta[field];
    else meta[field] = forms.storage.metadata[field];
  }
  return { ...forms.storage, metadata: meta };
}

/** The form a conversion webhook made of a stored state for `apiVersion` (its failure, if it failed). */
/** The failure of the conversion of a stored state to `apiVersion`, if it failed (nothing parsed). */
export function conversionFailure(value: StoredObject, apiVersion: string): StatusError | undefined {
  const form = value instanceof WrittenObject ? value.forms?.converted.get(apiVersion) : undefined;
  return form instanceof StatusError ? form : undefined;
}

function formIn(value: StoredObject, apiVersion: string): Obj | StatusError | undefined {
  const form = value instanceof WrittenObject ? value.forms?.converted.get(apiVersion) : undefined;
  return typeof form === 'string' ? (JSON.parse(form) as Obj) : form;
}

/** The object as the apiserver encodes it for etcd (PrepareObjectForStorage): no resourceVersion, no selfLink. */
function forStorage(obj: Obj): Obj {
  const { resourceVersion: _rv, selfLink: _link, ...metadata } = obj.metadata ?? {};
  return { ...obj, metadata };
}

/** Services and Endpoints for a `service` client config, read at the head. */
function serviceLookup(deps: WriteDeps): ServiceLookup {
  return (kind, namespace, name) => {
    const served = deps.resources.find('', 'v1', kind);
    const found = served?.store.get(objectKey(namespace, name), deps.store.head);
    return served && found ? objectOf(found.value, served.codec.type) : undefined;
  };
}
