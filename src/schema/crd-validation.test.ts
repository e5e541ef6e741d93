import { fieldErrorText, toCause } from '../k8s/field-errors';
import { customResourceValidator } from './crd-validation';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        list: { type: 'array', maxItems: 2, items: { type: 'string' } },
        map: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } },
        when: { type: 'string', format: 'date-time' },
        size: { type: 'string', format: 'int32' },
      },
    },
  },
};

describe('customResourceValidator: the apiserver\'s field errors', () => {
  const validate = customResourceValidator(schema);

  it('maxItems and maxProperties are FieldValueTooMany with the count (field.TooMany)', () => {
    const errs = validate({ spec: { list: ['a', 'b', 'c'], map: { a: 'x', b: 'y' } } });
    expect(errs.map(fieldErrorText)).toEqual(['spec.list: Too many: 3: must have at most 2 items', 'spec.map: Too many: 2: must have at most 1 items']);
    expect(toCause(errs[0]!)).toEqual({ reason: 'FieldValueTooMany', message: 'Too many: 3: must have at most 2 items', field: 'spec.list' });
  });

  it('a checked format is FieldValueTypeInvalid naming the format as written; int32 and other unchecked formats pass', () => {
    const errs = validate({ spec: { when: 'yesterday', size: 'big' } });
    expect(errs.map(fieldErrorText)).toEqual(['spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"']);
    expect(errs[0]!.type).toBe('TypeInvalid');
    expect(validate({ spec: { when: '2024-01-02T03:04:05Z' } })).toEqual([]);
  });
});

describe('customResourceValidator: patterns are RE2 (Go regexp), as the apiserver matches them', () => {
  // Operators' CRDs carry Go-only syntax, e.g. a flag group: `^(?i)(abort|warn)?$`.
  const validate = customResourceValidator({
    type: 'object',
    properties: { spec: { type: 'object', properties: { action: { type: 'string', pattern: '^(?i)(abort|warn)?$' }, month: { type: 'string', pattern: '^((?i)january|february)$' } } } },
  });

  it('a flag group compiles, applies case-insensitively, and a mismatch is the apiserver\'s error', () => {
    expect(validate({ spec: { action: 'Abort', month: 'JANUARY' } })).toEqual([]);
    expect(validate({ spec: { action: 'stop' } }).map(fieldErrorText)).toEqual([`spec.action: Invalid value: "stop": spec.action in body should match '^(?i)(abort|warn)?$'`]);
  });
});

describe('customResourceValidator: metadata', () => {
  it('a schema that requires metadata (as Argo CD\'s Application) is satisfied: every object has it', () => {
    const validate = customResourceValidator({ type: 'object', required: ['metadata', 'spec'], properties: { metadata: { type: 'object' }, spec: { type: 'object' } } });
    expect(validate({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec: {} })).toEqual([]);
    expect(validate({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' } }).map(fieldErrorText)).toEqual(['spec: Required value']);
  });
});

describe('customResourceValidator: schemas v1.26 accepts', () => {
  it('an empty enum restricts nothing (Go drops it as empty)', () => {
    const validate = customResourceValidator({ type: 'object', properties: { spec: { type: 'object', properties: { mode: { type: 'string', enum: [] } } } } });
    expect(validate({ spec: { mode: 'anything' } })).toEqual([]);
  });
});
