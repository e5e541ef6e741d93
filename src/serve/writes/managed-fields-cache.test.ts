import { mulberry32 } from '../../faults/random';
import type { ManagedFieldsEntry } from '../../k8s/managed-fields';
import { newSeenResource } from '../../reconstruct/seen-resource';
import { ResourceStore } from '../../store/resource-store';
import { ResourceCodec } from '../resource-codec';
import type { ServedResource } from '../served-resources';
import { cachedManagedFields } from './managed-fields-cache';
import { managedFieldsOfUpdate, type UpdateOperation } from './managed-fields-update';

type Obj = Record<string, any>;

function served(group: string, version: string, resource: string, kind: string, unstructured = false): ServedResource {
  const info = newSeenResource(group, version, resource);
  info.kind = kind;
  info.unstructured = unstructured;
  return { info, codec: new ResourceCodec(info), namespaced: true, store: new ResourceStore(info.id, 0) };
}

/** Objects from a small vocabulary, so that many writes share a shape and differ in values. */
function generator(seed: number) {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const maybe = (p = 0.5) => random() < p;
  const scalar = () => pick(['x', 'y', 1, 2, true, null] as const);
  const map = () => Object.fromEntries(['a', 'b', 'c'].filter(() => maybe()).map((k) => [k, pick(['x', 'y'])]));
  const meta = (): Obj => {
    const m: Obj = { name: 'o', namespace: 'w', uid: pick(['u1', 'u2']), resourceVersion: pick(['5', '6']), creationTimestamp: 't' };
    if (maybe()) m.labels = map();
    if (maybe(0.3)) m.annotations = map();
    if (maybe(0.3)) m.finalizers = ['f1', 'f2'].filter(() => maybe());
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
      const containers = ['c1', 'c2'].filter(() => maybe(0.7)).map((name) => ({ name, image: pick(['i1', 'i2']), ...(maybe(0.3) ? { args: [pick(['-a', '-b'])] } : {}) }));
      const o: Obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(), spec: { replicas: pick([1, 2]), template: { metadata: { labels: map() }, spec: { containers } } } };
      if (maybe(0.3)) o.spec.paused = scalar();
      if (maybe(0.5)) o.status = { replicas: pick([0, 1]) };
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

describe('cachedManagedFields', () => {
  it.each([
    ['configmaps', served('', 'v1', 'configmaps', 'ConfigMap'), 'configMap', 'all'],
    ['deployments', served('apps', 'v1', 'deployments', 'Deployment'), 'deployment', 'main'],
    ['deployments/status', served('apps', 'v1', 'deployments', 'Deployment'), 'deployment', 'status'],
    ['widgets, no schema', served('example.com', 'v1', 'widgets', 'Widget', true), 'widget', 'main'],
    ['widgets/status, no schema', served('example.com', 'v1', 'widgets', 'Widget', true), 'widget', 'status'],
  ] as const)('gives what managedFieldsOfUpdate gives, over writes that share shapes: %s', (_name, resource, kind, scope) => {
    const g = generator(7);
    let hits = 0;
    const seen = new Set<string>();
    for (let i = 0; i < 1500; i++) {
      const create = g.maybe(0.3);
      const op: UpdateOperation = {
        entries: create ? [] : g.entries(),
        manager: g.pick(['m1', 'm2']),
        time: g.pick(['t1', 't2']),
        subresource: scope === 'status' ? 'status' : undefined,
        scope,
        before: create ? undefined : g[kind](),
        after: g[kind](),
      };
      const expected = managedFieldsOfUpdate(resource, structuredClone(op));
      const text = JSON.stringify(expected);
      if (seen.has(text)) hits++;
      seen.add(text);
      expect(cachedManagedFields(resource, op)).toEqual(expected);
    }
    // The vocabulary is small enough that answers repeat (the cache is exercised).
    expect(hits).toBeGreaterThan(20);
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
