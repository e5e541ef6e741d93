import { mulberry32 } from '../../faults/random';
import type { ManagedFieldsEntry } from '../../k8s/managed-fields';
import { newSeenResource } from '../../reconstruct/seen-resource';
import { crdSchema } from '../../schema';
import { ResourceStore } from '../../store/resource-store';
import type { CustomResourceType } from '../crds/custom-resource-type';
import { ResourceCodec } from '../resource-codec';
import type { ServedResource } from '../served-resources';
import { cachedManagedFields } from './managed-fields-cache';
import { managedFieldsOfUpdate, type UpdateOperation } from './managed-fields-update';

type Obj = Record<string, any>;

function served(group: string, version: string, resource: string, kind: string, unstructured = false, custom?: CustomResourceType): ServedResource {
  const info = newSeenResource(group, version, resource);
  info.kind = kind;
  info.unstructured = unstructured;
  return { info, codec: new ResourceCodec(info), namespaced: true, store: new ResourceStore(info.id, 0), ...(custom ? { custom } : {}) };
}

/** A custom resource whose schema has lists of every kind: a map keyed by two fields (one defaulted), a set, an atomic list, an atomic map and unknown fields. */
function gadgets(): ServedResource {
  const str = { type: 'string' };
  const spec = {
    type: 'object',
    properties: {
      parts: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name', 'zone'],
        items: { type: 'object', properties: { name: str, zone: { type: 'string', default: 'z0' }, size: { type: 'integer' }, tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str } } },
      },
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
      steps: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'object', properties: { name: str } } },
      blob: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { parts: { type: 'array', 'x-kubernetes-list-type': 'set', items: str } } },
      extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
  const crd = { spec: { group: 'example.com', names: { kind: 'Gadget' }, versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties: { spec, status: { type: 'object', properties: { tags: spec.properties.tags } } } } } }] } };
  const custom = { crd: 'gadgets.example.com', kind: 'Gadget', schema: crdSchema(crd).typeOf('example.com/v1', 'Gadget')! } as CustomResourceType;
  return served('example.com', 'v1', 'gadgets', 'Gadget', false, custom);
}

/** Objects from a small vocabulary, so that many writes share a shape and differ in values. */
function generator(seed: number) {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const maybe = (p = 0.5) => random() < p;
  const scalar = () => pick(['x', 'y', 1, 2, true, null] as const);
  const map = () => Object.fromEntries(['a', 'b', 'c'].filter(() => maybe()).map((k) => [k, pick(['x', 'y'])]));
  /** A set's values: duplicates, nulls and order included. */
  const set = (): unknown[] => reorder(['a', 'b', 'a', null, 1].filter(() => maybe(0.4)));
  const reorder = <T>(xs: T[]): T[] => (maybe(0.3) ? [...xs].reverse() : xs);
  /** A container: list maps (ports keyed by port and protocol, defaulted; env by name, duplicates too) and an atomic list. */
  const container = (name: string): Obj => {
    const c: Obj = { name, image: pick(['i1', 'i2']) };
    if (maybe(0.3)) c.args = reorder([pick(['-a', '-b']), '-c']);
    if (maybe(0.3)) c.ports = reorder([80, 443].filter(() => maybe(0.7)).map((containerPort) => ({ containerPort, ...(maybe() ? { protocol: pick(['TCP', 'UDP']) } : {}) })));
    if (maybe(0.3)) c.env = ['A', 'B', 'A'].filter(() => maybe(0.6)).map((n) => ({ name: n, value: pick(['1', '2']) }));
    return c;
  };
  const containers = (): unknown[] => {
    const list: unknown[] = reorder(['c1', 'c2'].filter(() => maybe(0.7)).map(container));
    // Duplicate keys, an element without its key, a null element.
    if (maybe(0.1)) list.push(container('c1'));
    if (maybe(0.02)) list.push(pick([null, { image: 'i1' }]));
    return list;
  };
  const meta = (): Obj => {
    const m: Obj = { name: 'o', namespace: 'w', uid: pick(['u1', 'u2']), resourceVersion: pick(['5', '6']), creationTimestamp: 't' };
    if (maybe()) m.labels = map();
    if (maybe(0.3)) m.annotations = map();
    if (maybe(0.3)) m.finalizers = reorder(['f1', 'f2', 'f1'].filter(() => maybe()));
    if (maybe(0.2)) m.ownerReferences = ['o1', 'o2'].filter(() => maybe(0.7)).map((uid) => ({ apiVersion: 'v1', kind: 'K', name: pick(['n1', 'n2']), uid }));
    return m;
  };
  return {
    configMap: (): Obj => {
      const o: Obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta() };
      if (maybe(0.8)) o.data = Object.fromEntries(['k1', 'k2'].filter(() => maybe(0.7)).map((k) => [k, pick(['x', 'y'])]));
      if (maybe(0.2)) o.immutable = pick([true, false]);
      return o;
    },
    deployment: (): Obj => {
      const o: Obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(), spec: { replicas: pick([1, 2]), template: { metadata: { labels: map() }, spec: { containers: containers() } } } };
      if (maybe(0.1)) o.spec.template.spec.containers = pick([null, []]);
      if (maybe(0.3)) o.spec.paused = scalar();
      if (maybe(0.5)) o.status = { replicas: pick([0, 1]) };
      return o;
    },
    /** `before` with some containers changed (the rest, and everything else, shared with it), reordered or added. */
    patched: (before: Obj): Obj => {
      const spec = before.spec?.template?.spec ?? {};
      let list: unknown[] = Array.isArray(spec.containers) ? spec.containers.map((c: Obj) => (maybe() ? c : { ...c, image: pick(['i1', 'i2', 'i3']) })) : containers();
      if (maybe(0.2)) list = list.reverse();
      if (maybe(0.2)) list.push(container(pick(['c1', 'c2', 'c3'])));
      return { ...before, spec: { ...before.spec, template: { ...before.spec?.template, spec: { ...spec, containers: list } } } };
    },
    gadget: (): Obj => {
      const o: Obj = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: meta(), spec: {} };
      if (maybe(0.8)) {
        o.spec.parts = ['p1', 'p2', 'p1'].filter(() => maybe(0.6)).map((name) => ({ name, ...(maybe(0.7) ? { zone: pick(['z0', 'z1']) } : {}), ...(maybe() ? { size: pick([1, 2]) } : {}), ...(maybe(0.3) ? { tags: set() } : {}) }));
        if (maybe(0.2)) o.spec.parts = reorder(o.spec.parts);
        if (maybe(0.02)) o.spec.parts.push(pick([null, { size: 1 }, 'p']));
      }
      if (maybe(0.6)) o.spec.tags = maybe(0.1) ? null : set();
      if (maybe(0.4)) o.spec.steps = ['s1', 's2'].filter(() => maybe(0.7)).map((name) => ({ name }));
      if (maybe(0.3)) o.spec.blob = { parts: set() };
      if (maybe(0.3)) o.spec.extra = { list: set(), ...(maybe() ? { m: map() } : {}) };
      if (maybe(0.5)) o.status = { tags: set() };
      return o;
    },
    widget: (): Obj => {
      const o: Obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: meta() };
      if (maybe(0.7)) o.spec = { size: pick([1, 2]), ...(maybe() ? { items: [{ name: pick(['a', 'b']) }] } : {}) };
      if (maybe(0.6)) o.status = { ready: pick([true, false]), ...(maybe() ? { phase: 'x' } : {}) };
      return o;
    },
    entries: (): ManagedFieldsEntry[] => (maybe(0.5) ? [] : [{ manager: pick(['m1', 'm2']), operation: 'Update', apiVersion: 'v1', time: 't0', fieldsType: 'FieldsV1' as const, fieldsV1: pick([{ 'f:data': { '.': {}, 'f:k1': {} } }, { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } }, { 'f:spec': { 'f:replicas': {} } }, { 'f:status': { 'f:ready': {}, 'f:phase': {} } }, { 'f:spec': { 'f:size': {} } }]) }]),
    pick,
    maybe,
  };
}

/** Values of these fields (not keys of list elements) are renamed by `revalued`. */
const RENAMED = new Set(['image', 'size', 'value', 'replicas']);

/**
 * `op` with the values of RENAMED fields mapped one to one to new ones (`n`): equal values stay
 * equal, different ones different; subtrees `before` and `after` share stay shared.
 */
function revalued(op: UpdateOperation, n: number): UpdateOperation {
  const names = new Map<unknown, unknown>();
  const rename = (v: unknown) => {
    if (!names.has(v)) names.set(v, typeof v === 'number' ? n * 100 + names.size : `${String(v)}-${n}`);
    return names.get(v);
  };
  const copies = new Map<object, unknown>();
  const copy = (v: unknown, field?: string): unknown => {
    if (v === null || typeof v !== 'object') return field && RENAMED.has(field) && v !== null ? rename(v) : v;
    let c = copies.get(v);
    if (c === undefined) {
      c = Array.isArray(v) ? v.map((x) => copy(x)) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x, k)]));
      copies.set(v, c);
    }
    return c;
  };
  return { ...op, before: copy(op.before) as Obj | undefined, after: copy(op.after) as Obj };
}

/** What a computation answers: its value, or the message it throws. */
function outcome<T>(f: () => T): { value: T } | { error: string } {
  try {
    return { value: f() };
  } catch (err) {
    return { error: String((err as Error).message) };
  }
}

describe('cachedManagedFields', () => {
  it.each([
    ['configmaps', served('', 'v1', 'configmaps', 'ConfigMap'), 'configMap', 'all'],
    ['deployments', served('apps', 'v1', 'deployments', 'Deployment'), 'deployment', 'main'],
    ['deployments, patched', served('apps', 'v1', 'deployments', 'Deployment'), 'patched', 'main'],
    ['deployments/status', served('apps', 'v1', 'deployments', 'Deployment'), 'deployment', 'status'],
    ['gadgets', gadgets(), 'gadget', 'main'],
    ['gadgets/status', gadgets(), 'gadget', 'status'],
    ['widgets, no schema', served('example.com', 'v1', 'widgets', 'Widget', true), 'widget', 'main'],
    ['widgets/status, no schema', served('example.com', 'v1', 'widgets', 'Widget', true), 'widget', 'status'],
  ] as const)('gives what managedFieldsOfUpdate gives, over writes that share shapes: %s', (_name, resource, kind, scope) => {
    const g = generator(7);
    let hits = 0;
    let failures = 0;
    const shared = new Set<object>();
    const written: UpdateOperation[] = [];
    for (let i = 0; i < 3000; i++) {
      let op: UpdateOperation;
      if (written.length < 60 || g.maybe(0.3)) {
        const create = kind !== 'patched' && g.maybe(0.3);
        const before = create ? undefined : kind === 'patched' ? g.deployment() : g[kind]();
        op = {
          entries: create ? [] : g.entries(),
          manager: g.pick(['m1', 'm2']),
          time: g.pick(['t1', 't2']),
          subresource: scope === 'status' ? 'status' : undefined,
          scope,
          before,
          after: kind === 'patched' ? g.patched(before!) : g[kind](),
        };
        if (written.length < 60) written.push(op);
      } else {
        // A write made before, its values (not its keys) renamed: the same shape, other objects.
        op = revalued(g.pick(written), i);
      }
      const expected = outcome(() => managedFieldsOfUpdate(resource, structuredClone(op)));
      if ('error' in expected) failures++;
      const answer = outcome(() => cachedManagedFields(resource, op));
      expect(answer).toEqual(expected);
      // An answer from the table shares its fieldsV1 with the answers before it of the same key.
      const fields = 'value' in answer ? answer.value.map((e) => e.fieldsV1) : [];
      if (fields.some((f) => shared.has(f))) hits++;
      for (const f of fields) shared.add(f);
    }
    // Shapes repeat: many answers come from the table.
    expect(hits).toBeGreaterThan(800);
    // Lists with elements the schema cannot name are among the writes (rarely).
    if (kind === 'gadget' && scope === 'main') expect(failures).toBeGreaterThan(0);
  });

  // One field at a time, before and after drawn from a few values each: writes that differ only in
  // what a key could miss (absent, null or empty, order, duplicates, defaulted keys) meet often.
  it.each([
    ['gadgets', gadgets(), ['spec'], {
      tags: [undefined, null, [], ['a'], ['b'], ['a', 'b'], ['b', 'a'], ['a', 'a'], [null], ['a', null], [1], ['1']],
      parts: [undefined, null, [], [{ name: 'p1' }], [{ name: 'p1', zone: 'z0' }], [{ name: 'p1', zone: 'z1' }], [{ name: 'p1', size: 1 }], [{ name: 'p1', size: 2 }], [{ name: 'p2' }], [{ name: 'p1' }, { name: 'p2' }], [{ name: 'p2' }, { name: 'p1' }], [{ name: 'p1', size: 1 }, { name: 'p1', size: 2 }], [{ name: 'p1', tags: ['a'] }], [{ name: 'p1', tags: ['a', 'a'] }], [{ name: 'p1', tags: [] }], [{ size: 1 }], [null]],
      steps: [undefined, null, [], [{ name: 's1' }], [{ name: 's1' }, { name: 's2' }], [{ name: 's2' }, { name: 's1' }], [{ name: 's1' }, { name: 's1' }]],
      blob: [undefined, {}, { parts: ['a', 'b'] }, { parts: ['b', 'a'] }, { parts: null }, { parts: [] }],
      extra: [undefined, {}, { list: ['a', 'b'] }, { list: ['b', 'a'] }, { list: [] }, { list: null }, { m: {} }, { m: { a: 'x' } }],
    }, {
      'f:tags': { '.': {}, 'v:"a"': {}, 'v:null': {} },
      'f:parts': { 'k:{"name":"p1","zone":"z0"}': { '.': {}, 'f:name': {}, 'f:size': {}, 'f:tags': { 'v:"a"': {} } }, 'k:{"name":"p2","zone":"z0"}': { 'f:size': {} } },
      'f:steps': {},
      'f:blob': {},
      'f:extra': { 'f:list': {} },
    }],
    ['deployments', served('apps', 'v1', 'deployments', 'Deployment'), ['spec', 'template', 'spec'], {
      containers: [undefined, null, [], [{ name: 'c1', image: 'i1' }], [{ name: 'c1', image: 'i2' }], [{ name: 'c1', image: 'i1' }, { name: 'c2', image: 'i1' }], [{ name: 'c2', image: 'i1' }, { name: 'c1', image: 'i1' }], [{ name: 'c1', image: 'i1' }, { name: 'c1', image: 'i2' }], [{ name: 'c1', image: 'i1', ports: [{ containerPort: 80 }] }], [{ name: 'c1', image: 'i1', ports: [{ containerPort: 80, protocol: 'TCP' }] }], [{ name: 'c1', image: 'i1', ports: [{ containerPort: 80, protocol: 'UDP' }] }], [{ name: 'c1', image: 'i1', env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }] }], [{ name: 'c1', image: 'i1', env: [{ name: 'A', value: '2' }, { name: 'A', value: '1' }] }], [{ name: 'c1', image: 'i1', args: ['a', 'b'] }], [{ name: 'c1', image: 'i1', args: ['b', 'a'] }], [{ name: 'c1', image: 'i1', args: [] }], [{ image: 'i1' }]],
      imagePullSecrets: [undefined, null, [], [{ name: 's' }], [{ name: 's' }, { name: 's' }], [{ name: 's' }, { name: 't' }], [{ name: 't' }, { name: 's' }]],
    }, {
      'f:containers': { 'k:{"name":"c1"}': { '.': {}, 'f:image': {}, 'f:args': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } }, 'f:env': { 'k:{"name":"A"}': { 'f:value': {} } } } },
      'f:imagePullSecrets': { '.': {}, 'k:{"name":"s"}': {} },
    }],
  ] as const)('gives what managedFieldsOfUpdate gives for lists that differ in small ways: %s', (_name, resource, path, variants, owned) => {
    const g = generator(11);
    const fields = Object.keys(variants) as Array<keyof typeof variants>;
    const objectWith = (field: string, value: unknown): Obj => {
      const o: Obj = { metadata: { name: 'o', namespace: 'w', labels: { a: 'x' } } };
      let at = o;
      for (const p of path) at = at[p] = {};
      if (value !== undefined) at[field] = structuredClone(value);
      return o;
    };
    // Another manager owns members inside the lists, which the write takes or removes.
    let fieldsV1: Obj = {};
    for (const p of [...path].reverse()) fieldsV1 = { [`f:${p}`]: fieldsV1 };
    let at = fieldsV1;
    for (const p of path) at = at[`f:${p}`];
    Object.assign(at, owned);
    const owner: ManagedFieldsEntry[] = [{ manager: 'other', operation: 'Update', apiVersion: 'v1', time: 't0', fieldsType: 'FieldsV1', fieldsV1 }];
    let hits = 0;
    const shared = new Set<object>();
    for (let i = 0; i < 3000; i++) {
      const field = g.pick(fields);
      const values = variants[field] as readonly unknown[];
      const create = g.maybe(0.1);
      const before = create ? undefined : objectWith(field, g.pick(values));
      const after = objectWith(field, g.pick(values));
      // Sometimes the new object shares the old one's value, as a patch does.
      if (before && g.maybe(0.2)) after.spec = before.spec;
      const op: UpdateOperation = { entries: create ? [] : g.pick([[], owner]), manager: 'm', time: 't', scope: 'main', before, after };
      const expected = outcome(() => managedFieldsOfUpdate(resource, structuredClone(op)));
      const answer = outcome(() => cachedManagedFields(resource, op));
      expect(answer).toEqual(expected);
      const sets = 'value' in answer ? answer.value.map((e) => e.fieldsV1) : [];
      if (sets.some((f) => shared.has(f))) hits++;
      for (const f of sets) shared.add(f);
    }
    expect(hits).toBeGreaterThan(1000);
  });

  it('remembers an update that changes a list map element for the next update of the same shape', () => {
    const resource = served('apps', 'v1', 'deployments', 'Deployment');
    const deployment = (name: string, image: string, second: string): Obj => ({
      metadata: { name, namespace: 'w', uid: name, resourceVersion: '1', labels: { app: name } },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'app', image, ports: [{ containerPort: 80 }] }, { name: 'side', image: second }] } } },
    });
    // As stored: FieldsV1 frozen throughout.
    const fieldsV1 = Object.freeze({ 'f:spec': Object.freeze({ 'f:replicas': Object.freeze({}) }) });
    const entries: ManagedFieldsEntry[] = [{ manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: 't0', fieldsType: 'FieldsV1', fieldsV1 }];
    const op = (name: string, from: string, to: string, second: string): UpdateOperation => ({ entries, manager: 'kubectl-patch', time: 't', scope: 'main', before: deployment(name, from, second), after: deployment(name, to, second) });
    const first = cachedManagedFields(resource, op('a', 'i1', 'i2', 's1'));
    expect(first).toEqual(managedFieldsOfUpdate(resource, op('a', 'i1', 'i2', 's1')));
    expect(first[0]!.fieldsV1).toEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { 'f:image': {} } } } } } });
    // Another object, other images, the same element changed: the remembered entries (shared, frozen).
    const second = cachedManagedFields(resource, op('b', 'i7', 'i8', 's2'));
    expect(second).toEqual(first);
    expect(second[0]!.fieldsV1).toBe(first[0]!.fieldsV1);
    // The other element changed instead: its own entries.
    const other = cachedManagedFields(resource, { ...op('c', 'i1', 'i1', 's1'), after: deployment('c', 'i1', 's2') });
    expect(other[0]!.fieldsV1).toEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"side"}': { 'f:image': {} } } } } } });
  });

  it('returns entries the caller may change without changing later answers', () => {
    const resource = served('', 'v1', 'configmaps', 'ConfigMap');
    const op = (): UpdateOperation => ({ entries: [], manager: 'm', time: 't', scope: 'all', before: undefined, after: { metadata: { name: 'o' }, data: { k: 'v' } } });
    const first = cachedManagedFields(resource, op());
    first[0]!.manager = 'changed';
    expect(cachedManagedFields(resource, op())[0]!.manager).toBe('m');
    expect(() => {
      'use strict';
      (first[0]!.fieldsV1 as Obj)['f:data'] = {};
    }).toThrow(TypeError);
  });
});
