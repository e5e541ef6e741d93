/**
 * Custom resources of a CRD with a conversion webhook: before a write is stored, the object is
 * converted to the storage version and from it to every other served version (the webhook's
 * answers kept with the stored state), so that reads, lists and watches in any version, which
 * serve answers without waiting, show what the webhook made. Of a converted form, the metadata
 * is always the stored object's but for its labels and annotations (as the apiserver restores it).
 * Objects no write of serve converted (a recording's) are served with only apiVersion rewritten.
 */
import { StoredObject } from '../../reconstruct';
import { objectKey } from '../../store/revision';
import { convertObjects } from '../crds/conversion-webhook';
import type { ServiceLookup } from '../admission/webhook-client';
import type { ResourceRequest } from '../resource-request';
import type { WriteDeps } from './write-deps';
import { objectOf, WrittenObject, type StoredForms } from './written-object';

type Obj = Record<string, any>;

/** The forms of objects about to be stored (keyed by the object the write path commits). */
const pending = new WeakMap<Obj, StoredForms>();

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
  const requested = { ...obj, apiVersion };
  const storage = apiVersion === storageApiVersion ? requested : (await convertObjects(conversion, conversionDeps, custom.kind, apiVersion, storageApiVersion, [requested]))[0]!;
  const converted = new Map<string, Obj>();
  for (const version of custom.servedVersions) {
    const target = `${custom.group}/${version}`;
    if (target === storageApiVersion) continue;
    converted.set(target, (await convertObjects(conversion, conversionDeps, custom.kind, storageApiVersion, target, [storage]))[0]!);
  }
  pending.set(obj, { storage, converted });
}

/** The forms remembered for an object about to be stored, if any. */
export function formsOf(obj: Obj): StoredForms | undefined {
  return pending.get(obj);
}

/** Remembers `forms` for `obj` too (an ordered copy of the object, a marked copy of a stored state). */
export function carryForms(from: Obj | StoredObject, to: Obj): void {
  const forms = from instanceof WrittenObject ? from.forms : from instanceof StoredObject ? undefined : pending.get(from);
  if (forms) pending.set(to, forms);
}

/**
 * The object of a stored state in `apiVersion` when a conversion webhook made that form: the
 * converted content, the stored metadata with the form's labels and annotations.
 */
export function convertedObject(value: StoredObject, apiVersion: string): Obj | undefined {
  if (!(value instanceof WrittenObject) || !value.forms) return undefined;
  const form = value.forms.converted.get(apiVersion);
  if (!form) return undefined;
  const meta: Obj = { ...value.readOnly().metadata };
  for (const field of ['labels', 'annotations']) {
    if (form.metadata?.[field] === undefined) delete meta[field];
    else meta[field] = form.metadata[field];
  }
  return { ...structuredClone(form), metadata: structuredClone(meta) };
}

/** Services and Endpoints for a `service` client config, read at the head. */
function serviceLookup(deps: WriteDeps): ServiceLookup {
  return (kind, namespace, name) => {
    const served = deps.resources.find('', 'v1', kind);
    const found = served?.store.get(objectKey(namespace, name), deps.store.head);
    return served && found ? objectOf(found.value, served.codec.type) : undefined;
  };
}
