import { errorBody, invalidField } from './field-errors';

describe('field.Error ErrorBody', () => {
  it('prints a nil bad value as the quoted string "null", as v1.26 does', () => {
    expect(errorBody(invalidField('spec.x', undefined, 'field is immutable'))).toBe('Invalid value: "null": field is immutable');
    expect(errorBody(invalidField('spec.x', 'null', 'field is immutable'))).toBe('Invalid value: "null": field is immutable');
  });

  it('prints numbers and booleans bare, strings quoted', () => {
    expect(errorBody(invalidField('spec.x', 3, 'd'))).toBe('Invalid value: 3: d');
    expect(errorBody(invalidField('spec.x', true, 'd'))).toBe('Invalid value: true: d');
    expect(errorBody(invalidField('spec.x', 'a"b', 'd'))).toBe('Invalid value: "a\\"b": d');
  });
});
