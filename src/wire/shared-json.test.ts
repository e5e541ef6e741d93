import { freezeObject, isFrozenTree, isFrozenWrite } from './frozen-tree';
import { goJson } from './json-spans';

type Obj = Record<string, any>;

const native = (v: unknown) => JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('frozen trees and the JSON of objects sharing them', () => {
  const stored = () =>
    freezeObject({
      kind: 'Deployment',
      metadata: { name: 'web', labels: { 'a&b': '<x>' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': {} } }] },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'app', image: 'i:1', env: [{ name: 'E', value: '\u2028' }] }] } } },
    } as Obj);

  it('freezes every object and array but the fieldsV1 of managedFields, and a write to them throws what isFrozenWrite recognises', () => {
    const obj = stored();
    expect(isFrozenTree(obj.spec.template.spec.containers[0].env)).toBe(true);
    expect(isFrozenTree(obj.metadata.managedFields[0])).toBe(true);
    expect(Object.isFrozen(obj.metadata.managedFields[0].fieldsV1)).toBe(false);
    const writes = [
      () => (obj.spec.replicas = 2),
      () => (obj.spec.template.spec.containers[0].imagePullPolicy = 'Always'),
      () => delete obj.metadata.labels['a&b'],
      () => obj.spec.template.spec.containers.push({}),
    ];
    for (const write of writes) {
      let error: unknown;
      try {
        write();
      } catch (err) {
        error = err;
      }
      expect(isFrozenWrite(error)).toBe(true);
    }
    expect(isFrozenWrite(new TypeError('x is not a function'))).toBe(false);
  });

  it('writes an object new along one path and sharing the rest exactly as JSON.stringify does, HTML characters escaped', () => {
    const old = stored();
    // A copy-on-write change of the image: new objects down to the container, the rest shared.
    const container = { ...old.spec.template.spec.containers[0], image: 'i:2&', gone: undefined, f: () => 1 };
    const next: Obj = {
      ...old,
      metadata: { ...old.metadata, resourceVersion: '7' },
      spec: { ...old.spec, template: { ...old.spec.template, spec: { ...old.spec.template.spec, containers: [container, undefined, NaN, -0] } } },
      status: {},
    };
    expect(goJson(next)).toBe(native(next));
    // Twice: the second reuses the texts of the frozen subtrees.
    expect(goJson(next)).toBe(native(next));
    expect(goJson(old)).toBe(native(old));
    expect(goJson({ a: { b: 1 } })).toBe('{"a":{"b":1}}');
  });
});
