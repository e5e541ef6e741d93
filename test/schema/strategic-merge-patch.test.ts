/**
 * Strategic merge patch over the shipped schema: the cases apimachinery's strategicpatch tests
 * cover (merge by key, order, directives, errors), written anew on built-in types.
 */
import { fieldType, StrategicMergePatchError, strategicMergePatch } from '../../src/schema';
import { builtinSchema } from '../../src/serve/builtin-schema';

type Obj = Record<string, any>;
const schema = builtinSchema();
const deploymentType = schema.typeOf('apps/v1', 'Deployment');
const podType = schema.typeOf('v1', 'Pod');

const clone = <T>(v: T): T => structuredClone(v);
/** A deep-frozen copy: the merge is copy-on-write, and any change to the live object throws (strict mode). */
const frozen = <T>(v: T): T => {
  const deep = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    for (const k of Object.keys(x)) deep((x as Obj)[k]);
    Object.freeze(x);
  };
  const copy = clone(v);
  deep(copy);
  return copy;
};
const patchPod = (pod: Obj, patch: Obj): Obj => strategicMergePatch(frozen(pod), clone(patch), podType);
const patchDeployment = (d: Obj, patch: Obj): Obj => strategicMergePatch(frozen(d), clone(patch), deploymentType);

const pod = (spec: Obj, metadata: Obj = { name: 'p' }): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec });
const names = (list: Obj[]) => list.map((c) => c.name);

describe('strategic merge patch: maps', () => {
  it('merges maps key by key; null deletes a key; scalars are replaced', () => {
    const out = patchPod(pod({ nodeSelector: { a: '1', b: '2' }, hostname: 'x' }, { name: 'p', labels: { k: 'v', gone: 'x' } }), {
      metadata: { labels: { gone: null, added: 'y' } },
      spec: { nodeSelector: { b: '3' }, hostname: 'y' },
    });
    expect(out.metadata.labels).toEqual({ k: 'v', added: 'y' });
    expect(out.spec.nodeSelector).toEqual({ a: '1', b: '3' });
    expect(out.spec.hostname).toBe('y');
  });

  it('$patch: replace replaces the map; $patch: delete empties it', () => {
    expect(patchPod(pod({ nodeSelector: { a: '1', b: '2' } }), { spec: { nodeSelector: { c: '3', $patch: 'replace' } } }).spec.nodeSelector).toEqual({ c: '3' });
    expect(patchPod(pod({ nodeSelector: { a: '1' } }), { spec: { nodeSelector: { $patch: 'delete' } } }).spec.nodeSelector).toEqual({});
  });

  it('$retainKeys clears the keys it does not name (a Deployment strategy switched to Recreate)', () => {
    const d = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } };
    expect(patchDeployment(d, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }).spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('$retainKeys must name every key the patch sets (400)', () => {
    const d = { spec: { strategy: { type: 'RollingUpdate' } } };
    expect(() => patchDeployment(d, { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } })).toThrow(new StrategicMergePatchError('invalid patch format of retainKeys', 400));
  });

  it('an unknown $patch on a map is an error', () => {
    expect(() => patchPod(pod({ nodeSelector: {} }), { spec: { nodeSelector: { $patch: 'merge' } } })).toThrow('unknown patch type: merge in map: map[$patch:merge]');
  });
});

describe('strategic merge patch: lists merged by key', () => {
  const base = pod({ containers: [{ name: 'app', image: 'nginx:1', args: ['a', 'b'] }, { name: 'log', image: 'busybox' }] });

  it('a new element goes ahead of the live ones; a named one is merged in place', () => {
    const out = patchPod(base, { spec: { containers: [{ name: 'sidecar', image: 'envoy' }, { name: 'log', image: 'busybox:2' }] } });
    expect(names(out.spec.containers)).toEqual(['sidecar', 'app', 'log']);
    expect(out.spec.containers[2]).toEqual({ name: 'log', image: 'busybox:2' });
  });

  it('lists without a merge strategy (args) are replaced', () => {
    const out = patchPod(base, { spec: { containers: [{ name: 'app', args: ['c'] }] } });
    expect(out.spec.containers[0]).toEqual({ name: 'app', image: 'nginx:1', args: ['c'] });
  });

  it('$patch: delete removes the element with that key', () => {
    expect(names(patchPod(base, { spec: { containers: [{ name: 'app', $patch: 'delete' }] } }).spec.containers)).toEqual(['log']);
  });

  it('$patch: replace as an element makes the rest of the patch list the list', () => {
    const out = patchPod(base, { spec: { containers: [{ name: 'new', image: 'x' }, { $patch: 'replace' }] } });
    expect(out.spec.containers).toEqual([{ name: 'new', image: 'x' }]);
  });

  it('$patch: merge as an element is refused', () => {
    expect(() => patchPod(base, { spec: { containers: [{ $patch: 'merge' }] } })).toThrow('merging lists cannot yet be specified in the patch');
  });

  it('an element without the merge key is an error naming the map', () => {
    expect(() => patchPod(base, { spec: { containers: [{ image: 'x' }] } })).toThrow('map: map[image:x] does not contain declared merge key: name');
  });

  it('$setElementOrder puts the merged list in the given order', () => {
    const out = patchPod(base, {
      spec: { '$setElementOrder/containers': [{ name: 'log' }, { name: 'app' }], containers: [{ name: 'app', image: 'nginx:2' }] },
    });
    expect(names(out.spec.containers)).toEqual(['log', 'app']);
    expect(out.spec.containers[1].image).toBe('nginx:2');
  });

  it('ports merge by containerPort', () => {
    const p = pod({ containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] }] });
    const out = patchPod(p, { spec: { containers: [{ name: 'app', ports: [{ containerPort: 443, name: 'https' }] }] } });
    expect(out.spec.containers[0].ports).toEqual([{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'https' }]);
  });

  it('volumes merge by name and retain keys per element', () => {
    const p = pod({ volumes: [{ name: 'v', emptyDir: {} }] });
    const out = patchPod(p, { spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'configMap'], configMap: { name: 'cm' } }] } });
    expect(out.spec.volumes).toEqual([{ name: 'v', configMap: { name: 'cm' } }]);
  });
});

describe('strategic merge patch: lists of primitives', () => {
  const withFinalizers = (finalizers: string[]) => pod({}, { name: 'p', finalizers });

  it('merge lists of primitives are unions, patch items in the patch order and ahead', () => {
    expect(patchPod(withFinalizers(['a', 'b']), { metadata: { finalizers: ['c', 'a'] } }).metadata.finalizers).toEqual(['c', 'a', 'b']);
  });

  it('$deleteFromPrimitiveList removes the items it lists', () => {
    expect(patchPod(withFinalizers(['a', 'b', 'c']), { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } }).metadata.finalizers).toEqual(['a', 'c']);
  });

  it('$setElementOrder orders a primitive list', () => {
    const out = patchPod(withFinalizers(['a', 'b', 'c']), { metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'] } });
    expect(out.metadata.finalizers).toEqual(['c', 'b', 'a']);
  });

  it('a directive key without its list name is a bad format (400)', () => {
    expect(() => patchPod(withFinalizers(['a']), { metadata: { $deleteFromPrimitiveList: ['a'] } })).toThrow(new StrategicMergePatchError('invalid patch format of primitive list', 400));
  });

  it('a list of lists is refused (422)', () => {
    const err = (() => {
      try {
        patchPod(pod({}, { name: 'p', finalizers: [['y']] }), { metadata: { finalizers: [['x']] } });
      } catch (e) {
        return e as StrategicMergePatchError;
      }
      return undefined;
    })();
    expect(err?.code).toBe(422);
    expect(() => patchPod(withFinalizers(['a']), { metadata: { finalizers: [['x']] } })).toThrow('list element types are not identical');
  });
});

describe('strategic merge patch: fields the schema does not know', () => {
  it('merges their maps and replaces their lists', () => {
    expect(fieldType(podType, 'extra')).toBeUndefined();
    const out = patchPod({ ...pod({}), extra: { list: [1, 2], m: { a: 1 } } }, { extra: { list: [3], m: { b: 2 } } });
    expect(out.extra).toEqual({ list: [3], m: { a: 1, b: 2 } });
  });
});

describe('strategic merge patch: copy-on-write', () => {
  const live = pod({
    containers: [{ name: 'app', image: 'nginx:1', ports: [{ containerPort: 80 }] }, { name: 'log', image: 'busybox' }],
    volumes: [{ name: 'v', emptyDir: {} }],
  }, { name: 'p', labels: { a: '1' } });

  it('leaves the live object as it was and shares every subtree the patch does not change', () => {
    const before = frozen(live);
    const out: Obj = strategicMergePatch(before, { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } }, podType);
    expect(out).not.toBe(before);
    expect(out.metadata).toBe(before.metadata);
    expect(out.spec.volumes).toBe(before.spec.volumes);
    expect(out.spec.containers[0].ports).toBe(before.spec.containers[0].ports);
    expect(out.spec.containers[1]).toBe(before.spec.containers[1]);
    expect(out.spec.containers[0]).toEqual({ name: 'app', image: 'nginx:2', ports: [{ containerPort: 80 }] });
    expect(Object.keys(out)).toEqual(Object.keys(before));
    expect(before.spec.containers[0].image).toBe('nginx:1');
  });

  it('a copied map keeps its key order when a key is deleted and set again', () => {
    const out: Obj = strategicMergePatch(frozen({ metadata: { labels: { a: '1', b: '2', c: '3' } } }), { metadata: { labels: { a: null, b: '9', d: '4' } } }, podType);
    expect(Object.entries(out.metadata.labels)).toEqual([['b', '9'], ['c', '3'], ['d', '4']]);
  });

  it('items of the patch merge into each other in place, as the apiserver shows in the patch it prints', () => {
    // Two patch items with one name: the second merges into the first (added to the list by the patch), not into a copy.
    const patch: Obj = { spec: { containers: [{ name: 'new', image: 'a' }, { name: 'new', args: ['x'] }] } };
    const out: Obj = strategicMergePatch(frozen(live), patch, podType);
    expect(out.spec.containers[0]).toBe(patch.spec.containers[0]);
    expect(patch.spec.containers[0]).toEqual({ name: 'new', image: 'a', args: ['x'] });
  });
});
