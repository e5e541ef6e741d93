import { prune, validateSchemaDefaults } from './crd-default-validation';
import { fieldErrorText } from './field-errors';

type Obj = Record<string, any>;
const check = (s: Obj) => validateSchemaDefaults('s', s, true).map(fieldErrorText);

describe('prune (pruning.Prune)', () => {
  it('drops what the schema does not specify, keeps what preserve-unknown-fields and embedded resources keep', () => {
    const value: Obj = { a: 1, b: { c: 2, d: 3 }, free: { x: { y: 1 } }, list: [{ k: 1, z: 2 }], res: { apiVersion: 'v1', kind: 'K', metadata: { name: 'n' }, other: 1 } };
    prune(value, { type: 'object', properties: {
      a: { type: 'integer' },
      b: { type: 'object', properties: { c: { type: 'integer' } } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      list: { type: 'array', items: { type: 'object', properties: { k: { type: 'integer' } } } },
      res: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': false, properties: {} },
    } }, false);
    expect(value).toEqual({ a: 1, b: { c: 2 }, free: { x: { y: 1 } }, list: [{ k: 1 }], res: { apiVersion: 'v1', kind: 'K', metadata: { name: 'n' } } });
  });
});

describe('validateSchemaDefaults', () => {
  it('wants defaults pruned and valid, nested and in list items', () => {
    expect(check({ type: 'object', properties: {
      spec: { type: 'object', default: { size: 'big', extra: true }, properties: { size: { type: 'string', enum: ['small', 'big'] } } },
      items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer', default: 1.5 } } } },
      name: { type: 'string', maxLength: 3, default: 'toolong' },
      opt: { type: 'string', nullable: true, default: null },
    } })).toEqual([
      's.properties[items].items.properties[n].default: Invalid value: "number":  in body must be of type integer: "number"',
      's.properties[name].default: Too long: may not be longer than 3',
      's.properties[spec].default: Invalid value: map[string]interface {}{"extra":true, "size":"big"}: must not have unknown fields',
    ]);
  });

  it('checks required fields and nested values inside an object default', () => {
    expect(check({ type: 'object', properties: { spec: { type: 'object', default: { a: 'x' }, required: ['b'], properties: { a: { type: 'integer' }, b: { type: 'string' } } } } })).toEqual([
      's.properties[spec].default.b: Required value',
      's.properties[spec].default.a: Invalid value: "string": a in body must be of type integer: "string"',
    ]);
  });
});
