import { fieldErrorText } from './field-errors';
import { isStructural, structuralConversionError, validateStructural } from './structural-schema-validation';

type Obj = Record<string, any>;
const check = (s: Obj) => validateStructural('s', s).map(fieldErrorText);

describe('structuralConversionError (NewStructural)', () => {
  it('names the first unsupported field, depth first', () => {
    expect(structuralConversionError({ type: 'object' })).toBeUndefined();
    expect(structuralConversionError({ type: 'object', id: 'x' })).toBe("OpenAPIV3Schema 'id' is not supported");
    expect(structuralConversionError({ type: 'object', properties: { a: { allOf: [{ $ref: '#/a' }] } } })).toBe("OpenAPIV3Schema '$ref' is not supported");
    expect(structuralConversionError({ type: 'object', properties: { a: { type: 'array', items: [{ type: 'string' }] } } })).toBe("OpenAPIV3Schema 'items' must be a schema, but is an array");
    expect(structuralConversionError({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false })).toBe("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  });
});

describe('validateStructural', () => {
  it('sorts its errors by text, as Go does', () => {
    expect(check({ properties: { b: {}, a: { type: 'array' } } })).toEqual([
      's.properties[a].items: Required value: must be specified',
      's.properties[b].type: Required value: must not be empty for specified object fields',
      's.type: Required value: must not be empty at the root',
    ]);
  });

  it('accepts the two IntOrString patterns and x-kubernetes-int-or-string without a type', () => {
    expect(check({ type: 'object', properties: {
      a: { 'x-kubernetes-int-or-string': true },
      b: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      c: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+%?$' }] },
    } })).toEqual([]);
  });

  it('forbids generic fields under value validations and wants what the root\'s name specified outside them', () => {
    expect(check({ type: 'object', properties: { a: { type: 'object', oneOf: [{ properties: { x: { type: 'string', description: 'd' } } }] } } })).toEqual([
      's.properties[a].oneOf[0].properties[x].description: Forbidden: must be empty to be structural',
      's.properties[a].oneOf[0].properties[x].type: Forbidden: must be empty to be structural',
    ]);
    // Completeness is checked from the root's junctors only (validateStructuralCompleteness does not descend).
    expect(check({ type: 'object', properties: { a: { type: 'object' } }, anyOf: [{ properties: { a: { properties: { y: {} } } } }, { required: ['a'] }] })).toEqual([
      's.properties[a].properties[y]: Required value: because it is defined in s.anyOf[0].properties[a].properties[y]',
    ]);
  });

  it('checks embedded resources, kind/apiVersion types and nested metadata', () => {
    expect(check({ type: 'object', properties: {
      kind: { type: 'integer' },
      r: { 'x-kubernetes-embedded-resource': true, additionalProperties: { type: 'string' } },
      n: { type: 'object', not: { properties: { metadata: {} } } },
    } })).toEqual([
      's.properties[kind].type: Invalid value: "integer": must be string',
      's.properties[n].not.properties[metadata]: Forbidden: must not be specified in a nested context',
      's.properties[r].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set',
      's.properties[r].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      's.properties[r].type: Required value: must be object if x-kubernetes-embedded-resource is true',
    ]);
  });

  it('wants patterns Go can compile', () => {
    expect(check({ type: 'object', properties: { a: { type: 'string', pattern: '^(?!x).*$' }, b: { type: 'string', pattern: '^[a-z]+$' } } })).toEqual([
      's.properties[a].pattern: Invalid value: "^(?!x).*$": must be a valid regular expression, but isn\'t: error parsing regexp: invalid or unsupported Perl syntax: `(?!`',
    ]);
  });

  it('isStructural', () => {
    expect(isStructural({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })).toBe(true);
    expect(isStructural({ type: 'object', properties: { spec: {} } })).toBe(false);
  });
});
