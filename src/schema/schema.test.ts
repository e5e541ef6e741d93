import { elementType, fieldType, keepsUnknownFields, listMapKeys, listType, mapType, patchMergeKey, patchStrategy, Schema, type SchemaData } from '.';

const data: SchemaData = {
  version: 1,
  kinds: { 'example.com/v1/Thing': 'Thing' },
  definitions: {
    Thing: {
      type: 'object',
      properties: {
        spec: { ref: 'Spec', default: {}, patchStrategy: 'retainKeys' },
        labels: { type: 'map', values: { type: 'string' } },
      },
      required: ['spec'],
    },
    Spec: {
      type: 'object',
      properties: {
        items: { type: 'array', items: { ref: 'Item' }, patchStrategy: 'merge', patchMergeKey: 'name' },
        ports: { type: 'array', items: { ref: 'Item' }, patchStrategy: 'merge', patchMergeKey: 'port', listType: 'map', listMapKeys: ['port', 'protocol'] },
        finalizers: { type: 'array', items: { type: 'string' }, patchStrategy: 'merge' },
        args: { type: 'array', items: { type: 'string' } },
        tags: { type: 'array', items: { type: 'string' }, listType: 'set' },
        ref: { ref: 'Ref' },
        child: { ref: 'Spec' },
        raw: { type: 'any' },
      },
    },
    Item: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'int-or-string' } } },
    Ref: { type: 'object', properties: { name: { type: 'string' } }, mapType: 'atomic' },
  },
};

describe('Schema', () => {
  const schema = new Schema(data);

  it('finds a kind’s root type by apiVersion and kind', () => {
    const root = schema.typeOf('example.com/v1', 'Thing')!;
    expect(root.definition).toBe('Thing');
    expect(root.required).toEqual(['spec']);
    expect(schema.typeOf('example.com/v2', 'Thing')).toBeUndefined();
    expect(schema.has('example.com/v1', 'Thing')).toBe(true);
  });

  it('follows fields through definitions, with the field’s own markers over the definition’s', () => {
    const spec = fieldType(schema.typeOf('example.com/v1', 'Thing'), 'spec')!;
    expect(spec.type).toBe('object');
    expect(spec.definition).toBe('Spec');
    expect(patchStrategy(spec)).toBe('retainKeys');
    expect(spec.default).toEqual({});
    expect(patchStrategy(schema.definition('Spec'))).toBeUndefined();
    expect(fieldType(spec, 'nope')).toBeUndefined();
    expect(fieldType(undefined, 'spec')).toBeUndefined();
  });

  it('links recursive definitions', () => {
    const spec = schema.definition('Spec')!;
    const child = fieldType(fieldType(spec, 'child'), 'child')!;
    expect(child.definition).toBe('Spec');
    expect(fieldType(child, 'items')!.type).toBe('array');
  });

  it('gives element types of lists and maps', () => {
    const root = schema.typeOf('example.com/v1', 'Thing');
    const items = fieldType(fieldType(root, 'spec'), 'items');
    expect(elementType(items)!.definition).toBe('Item');
    expect(fieldType(elementType(items), 'port')!.type).toBe('int-or-string');
    expect(elementType(fieldType(root, 'labels'))!.type).toBe('string');
  });

  it('derives list types and keys as the apiserver does for built-in types', () => {
    const spec = schema.definition('Spec');
    expect(listType(fieldType(spec, 'items'))).toBe('map');
    expect(listMapKeys(fieldType(spec, 'items'))).toEqual(['name']);
    expect(patchMergeKey(fieldType(spec, 'ports'))).toBe('port');
    expect(listMapKeys(fieldType(spec, 'ports'))).toEqual(['port', 'protocol']);
    expect(listType(fieldType(spec, 'finalizers'))).toBe('set');
    expect(listType(fieldType(spec, 'args'))).toBe('atomic');
    expect(listMapKeys(fieldType(spec, 'args'))).toEqual([]);
    expect(listType(fieldType(spec, 'tags'))).toBe('set');
  });

  it('gives map types, granular unless marked atomic', () => {
    const spec = schema.definition('Spec');
    expect(mapType(fieldType(spec, 'ref'))).toBe('atomic');
    expect(mapType(spec)).toBe('granular');
  });

  it('says which nodes keep unknown fields', () => {
    const spec = schema.definition('Spec');
    expect(keepsUnknownFields(fieldType(spec, 'raw'))).toBe(true);
    expect(keepsUnknownFields(spec)).toBe(false);
  });
});
