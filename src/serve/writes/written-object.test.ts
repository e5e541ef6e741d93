import { goJson } from '../../wire/json-spans';
import { WrittenObject } from './written-object';

type Obj = Record<string, any>;

describe('WrittenObject', () => {
  const odd = (): Obj => ({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: 'x', namespace: undefined, labels: { a: '<&>' } },
    data: { k: 'v', 2: 'two' },
    list: [1, undefined, -0, Number.NaN, { f: () => 1, g: null }, [true, 'y']],
    n: -0,
    inf: Number.POSITIVE_INFINITY,
  });

  it('gives copies equal to its text parsed, whether it keeps the object or only the text', () => {
    const w = new WrittenObject(odd());
    const parsed = JSON.parse(w.json!);
    expect(w.json).toBe(goJson(odd()));
    expect(w.object).toStrictEqual(parsed);
    expect(Object.keys(w.object)).toEqual(Object.keys(parsed));
    expect(Object.is(w.object.n, 0)).toBe(true);
    // 256 newer states: this one keeps only its text.
    for (let i = 0; i < 256; i++) new WrittenObject({ i });
    expect(w.object).toStrictEqual(parsed);
  });

  it('copies are the caller\'s: changing one changes neither later copies nor what readers see', () => {
    const w = new WrittenObject({ metadata: { name: 'x', labels: { a: 'b' } }, data: { k: 'v' }, items: [{ n: 1 }] });
    const copy = w.object;
    copy.metadata.labels.a = 'changed';
    copy.items[0].n = 2;
    copy.data = {};
    expect(w.object).toEqual({ metadata: { name: 'x', labels: { a: 'b' } }, data: { k: 'v' }, items: [{ n: 1 }] });
    expect(w.readOnly()).toEqual(w.object);
  });
});
