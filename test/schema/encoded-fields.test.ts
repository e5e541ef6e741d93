/**
 * The set questions answered on stored FieldsV1 (src/schema/encoded-fields.ts) against the same
 * questions asked of decoded FieldSets, over random sets (seeded); and the non-normal encodings
 * that must be decoded instead.
 */
import { encodedContains, encodedIntersects, encodedWithin, isNormalEncoding, matchesEncoding } from '../../src/schema/encoded-fields';
import { FieldSet } from '../../src/schema/field-set';
import { mulberry32 } from '../../src/faults/random';

const random = mulberry32;

const ELEMENTS = ['f:a', 'f:b', 'f:spec', 'k:{"name":"x"}', 'k:{"name":"y"}', 'v:"s"', 'i:0', 'i:10', 'k:{"port":80,"protocol":"TCP"}'];

function randomSet(next: () => number): FieldSet {
  const set = new FieldSet();
  const paths = Math.floor(next() * 6);
  for (let i = 0; i < paths; i++) {
    const depth = 1 + Math.floor(next() * 3);
    set.insert(Array.from({ length: depth }, () => ELEMENTS[Math.floor(next() * ELEMENTS.length)]!));
  }
  return set;
}

describe('encoded FieldsV1', () => {
  it('answers as the decoded sets do', () => {
    const next = random(16);
    for (let i = 0; i < 1000; i++) {
      const a = randomSet(next);
      const b = randomSet(next);
      const encoded = a.toFieldsV1();
      expect(isNormalEncoding(encoded)).toBe(true);
      expect(FieldSet.fromFieldsV1(encoded).toFieldsV1()).toEqual(encoded);
      expect(encodedIntersects(encoded, b)).toBe(!a.intersection(b).isEmpty());
      expect(encodedContains(encoded, b)).toBe(b.difference(a).isEmpty());
      expect(encodedWithin(encoded, b)).toBe(a.difference(b).isEmpty());
      expect(matchesEncoding(b, encoded)).toBe(JSON.stringify(b.toFieldsV1()) === JSON.stringify(encoded));
      expect(matchesEncoding(a.copy(), encoded)).toBe(true);
    }
  });

  it('leaves other spellings to the decoder', () => {
    expect(isNormalEncoding({ 'f:b': {}, 'f:a': {} })).toBe(false); // unsorted
    expect(isNormalEncoding({ 'f:a': { '.': {} } })).toBe(false); // a member leaf is {}
    expect(isNormalEncoding({ 'f:a': { 'f:x': {}, '.': {} } })).toBe(false); // "." first
    expect(isNormalEncoding({ 'f:a': { '.': { x: 1 }, 'f:x': {} } })).toBe(false);
    expect(isNormalEncoding({ 'f:a': true })).toBe(false);
    expect(isNormalEncoding({ '.': {}, 'f:a': {} })).toBe(false); // the root is no member
    expect(isNormalEncoding([])).toBe(false);
    expect(isNormalEncoding(undefined)).toBe(false);
    expect(isNormalEncoding({})).toBe(true);
    expect(isNormalEncoding({ 'f:a': { '.': {}, 'f:x': {} }, 'k:{"name":"x"}': {} })).toBe(true);
  });
});
