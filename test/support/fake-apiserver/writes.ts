/**
 * Writes with the apiserver's rules: create (201, AlreadyExists, generateName, namespace must exist),
 * update (409 on a stale resourceVersion, no-op keeps the RV), patch (merge / strategic-as-merge / JSON patch /
 * apply), delete (Status Success, finalizers → deletionTimestamp first). Every change is one store revision.
 */
import { randomUUID } from 'node:crypto';
import type { FakeStore } from './store';
import { canonicalObject, managedFieldsAfter, rfc3339, type KObject } from './objects';
import { groupVersion, resourceByName, type ResourceDef } from './resources';
import { alreadyExists, badRequest, conflict, invalidObject, notFound, success, unsupportedMediaType } from './status';
import { applyJsonPatch, mergePatch } from './patch';

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

export class ObjectWriter {
  constructor(
    private readonly store: FakeStore,
    private readonly now: () => Date,
    private readonly uid: () => string = randomUUID,
  ) {}

  create(def: ResourceDef, namespace: string | undefined, body: KObject, manager: string): KObject {
    const ns = def.scope === 'Namespaced' ? namespace ?? body.metadata?.namespace ?? 'default' : '';
    const meta = { ...(body.metadata ?? {}) };
    if (ns && meta.namespace && meta.namespace !== ns) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (!meta.name && meta.generateName) {
      meta.name = meta.generateName + Array.from({ length: 5 }, () => NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)]).join('');
    }
    if (!meta.name) {
      throw invalidObject(def.kind, def.group, '', [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]);
    }
    if (ns && !this.store.current('namespaces', '', ns)) throw notFound('namespaces', '', ns);
    if (this.store.current(def.resource, ns, meta.name)) throw alreadyExists(def.resource, def.group, meta.name);
    const time = rfc3339(this.now());
    const event = this.store.write(def.resource, ns, meta.name, (rv) => {
      const draft: KObject = defaults(def, { ...body, metadata: meta });
      draft.metadata = {
        ...draft.metadata, namespace: ns || undefined, uid: this.uid(), resourceVersion: String(rv),
        generation: def.custom ? 1 : undefined, creationTimestamp: time,
      };
      draft.metadata.managedFields = managedFieldsAfter(undefined, draft, manager, groupVersion(def), time);
      return canonicalObject(def, draft);
    }, 'ADDED');
    return event.object;
  }

  update(def: ResourceDef, namespace: string | undefined, name: string, body: KObject, manager: string, operation = 'Update'): KObject {
    const ns = def.scope === 'Namespaced' ? namespace ?? '' : '';
    const current = this.store.current(def.resource, ns, name);
    if (!current) throw notFound(def.resource, def.group, name);
    if (body.metadata?.name && body.metadata.name !== name) {
      throw badRequest('the name of the object (' + body.metadata.name + ') does not match the name on the URL (' + name + ')');
    }
    const wanted = body.metadata?.resourceVersion;
    if (wanted && wanted !== current.metadata.resourceVersion) throw conflict(def.resource, def.group, name);
    const time = rfc3339(this.now());
    const next: KObject = defaults(def, { ...body });
    next.metadata = {
      ...(body.metadata ?? {}), name, namespace: ns || undefined, uid: current.metadata.uid,
      creationTimestamp: current.metadata.creationTimestamp, deletionTimestamp: current.metadata.deletionTimestamp,
      deletionGracePeriodSeconds: current.metadata.deletionGracePeriodSeconds, generation: current.metadata.generation,
    };
    if (def.custom && JSON.stringify(next.spec) !== JSON.stringify(current.spec)) next.metadata.generation = (current.metadata.generation ?? 0) + 1;
    if (sameContent(def, current, next)) return current;
    if (next.metadata.deletionTimestamp && !(next.metadata.finalizers ?? []).length) {
      return this.store.write(def.resource, ns, name, () => null, 'DELETED').object;
    }
    const event = this.store.write(def.resource, ns, name, (rv) => {
      next.metadata.resourceVersion = String(rv);
      next.metadata.managedFields = managedFieldsAfter(current, next, manager, groupVersion(def), time);
      if (operation !== 'Update') for (const e of next.metadata.managedFields) if (e.manager === manager && e.time === time) e.operation = operation;
      return canonicalObject(def, next);
    }, 'MODIFIED');
    return event.object;
  }

  patch(def: ResourceDef, namespace: string | undefined, name: string, contentType: string, patch: KObject | KObject[], manager: string): KObject {
    const ns = def.scope === 'Namespaced' ? namespace ?? '' : '';
    const type = contentType.split(';')[0].trim();
    const current = this.store.current(def.resource, ns, name);
    if (type === 'application/apply-patch+yaml' && !current) return this.create(def, namespace, patch as KObject, manager);
    if (!current) throw notFound(def.resource, def.group, name);
    let next: KObject;
    if (type === 'application/merge-patch+json' || type === 'application/apply-patch+yaml') next = mergePatch(current, patch as KObject);
    else if (type === 'application/strategic-merge-patch+json' && !def.custom) next = mergePatch(current, patch as KObject);
    else if (type === 'application/json-patch+json') next = applyJsonPatch(current, patch as KObject[]);
    else throw unsupportedMediaType(type);
    const wanted = (patch as KObject).metadata?.resourceVersion;
    if (!wanted) next.metadata = { ...next.metadata, resourceVersion: undefined };
    return this.update(def, namespace, name, next, manager, type === 'application/apply-patch+yaml' ? 'Apply' : 'Update');
  }

  /** Deletes (or marks deleting while finalizers remain). Returns what the apiserver answers with. */
  remove(def: ResourceDef, namespace: string | undefined, name: string, options: KObject = {}): KObject {
    const ns = def.scope === 'Namespaced' ? namespace ?? '' : '';
    const current = this.store.current(def.resource, ns, name);
    if (!current) throw notFound(def.resource, def.group, name);
    const pre = options.preconditions ?? {};
    if ((pre.uid && pre.uid !== current.metadata.uid) || (pre.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion)) {
      throw conflict(def.resource, def.group, name);
    }
    if ((current.metadata.finalizers ?? []).length) {
      if (current.metadata.deletionTimestamp) return current;
      const marked = this.store.write(def.resource, ns, name, (rv) => canonicalObject(def, {
        ...current, metadata: { ...current.metadata, resourceVersion: String(rv), deletionTimestamp: rfc3339(this.now()), deletionGracePeriodSeconds: 0 },
      }), 'MODIFIED');
      return marked.object;
    }
    if (def.resource === 'namespaces') this.emptyNamespace(name);
    const event = this.store.write(def.resource, ns, name, () => null, 'DELETED');
    if (def.resource === 'pods' || def.resource === 'namespaces') return event.object;
    return success(def.resource, def.group, name, current.metadata.uid);
  }

  private emptyNamespace(namespace: string): void {
    for (const r of ['configmaps', 'secrets', 'pods', 'widgets']) {
      for (const { object } of this.store.stateAt(r, this.store.head, namespace)) {
        this.store.write(r, namespace, object.metadata.name, () => null, 'DELETED');
      }
    }
  }

  ensureNamespace(name: string, manager = 'kube-apiserver'): void {
    if (!this.store.current('namespaces', '', name)) this.create(resourceByName('namespaces'), undefined, { metadata: { name } }, manager);
  }
}

function defaults(def: ResourceDef, obj: KObject): KObject {
  const out = { ...obj };
  if (def.kind === 'Secret') {
    out.type = out.type ?? 'Opaque';
    if (out.stringData) {
      out.data = { ...(out.data ?? {}) };
      for (const [k, v] of Object.entries(out.stringData)) out.data[k] = Buffer.from(String(v)).toString('base64');
      delete out.stringData;
    }
  }
  if (def.kind === 'Namespace') {
    out.spec = out.spec ?? { finalizers: ['kubernetes'] };
    out.status = out.status ?? { phase: 'Active' };
    const name = obj.metadata?.name;
    if (name) out.metadata = { ...obj.metadata, labels: { ...(obj.metadata?.labels ?? {}), 'kubernetes.io/metadata.name': name } };
  }
  if (def.kind === 'Pod') out.status = out.status ?? { phase: 'Pending', qosClass: 'BestEffort' };
  return out;
}

function sameContent(def: ResourceDef, a: KObject, b: KObject): boolean {
  const strip = (o: KObject) => {
    const c = canonicalObject(def, o);
    const { resourceVersion: _r, managedFields: _m, ...meta } = c.metadata;
    return JSON.stringify({ ...c, metadata: meta });
  };
  return strip(a) === strip(b);
}
