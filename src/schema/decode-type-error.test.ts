import { base64ErrorAt, quantityError } from './decode-type-error';

describe('base64ErrorAt (Go base64.StdEncoding.Decode CorruptInputError offsets)', () => {
  it.each([
    ['aGVsbG8=', undefined],
    ['', undefined],
    ['aGVs\nbG8=', undefined],
    ['not base64!', 3],
    ['aGVsbG8', 4],
    ['aGVsbG', 4],
    ['aGVsb===', 5],
    ['aG=', 3],
    ['a===', 1],
    ['aGVsbG8=x', 8],
  ])('%j → %s', (text, at) => {
    expect(base64ErrorAt(text)).toBe(at);
  });
});

describe('quantityError (resource.ParseQuantity)', () => {
  it('accepts what the apiserver parses and names the two errors', () => {
    for (const ok of ['1', '100m', '1.5Gi', '2e3', '+1', '.5', '0', 3, 0.5]) expect(quantityError(ok)).toBeUndefined();
    expect(quantityError('lots')).toMatch(/^quantities must match the regular expression/);
    expect(quantityError(true)).toMatch(/^quantities must match the regular expression/);
    expect(quantityError('1Mm')).toBe("unable to parse quantity's suffix");
  });
});
