import { compareQuantities, formatQuantity, parseQuantity } from './quantity';

describe('resource.Quantity', () => {
  const canonical = (s: string) => formatQuantity(parseQuantity(s)!);
  it('prints canonical forms', () => {
    expect(['1000m', '1500m', '0.5', '1024Mi', '1536Mi', '512Ki', '1000', '1e3', '12e2', '0', '-2', '100n', '1.5Gi', '2k'].map(canonical)).toEqual([
      '1', '1500m', '500m', '1Gi', '1536Mi', '512Ki', '1k', '1e3', '1200', '0', '-2', '100n', '1536Mi', '2k',
    ]);
    expect(parseQuantity('1x')).toBeUndefined();
  });

  it('compares across formats', () => {
    const cmp = (a: string, b: string) => compareQuantities(parseQuantity(a)!, parseQuantity(b)!);
    expect(cmp('1Gi', '1024Mi')).toBe(0);
    expect(cmp('1G', '1Gi')).toBe(-1);
    expect(cmp('500m', '0.4')).toBe(1);
    expect(cmp('-1', '0')).toBe(-1);
    expect(cmp('100m', '1')).toBe(-1);
    expect(cmp('1000000001n', '1')).toBe(1);
    expect(cmp('999999999999999999999m', '1e18')).toBe(-1);
    expect(cmp('1e400', '2e400')).toBe(-1);
    expect(cmp('1e400', '1000e397')).toBe(0);
    expect(parseQuantity('1Gi')).toBe(parseQuantity('1Gi'));
    expect(Object.isFrozen(parseQuantity('2Gi'))).toBe(true);
  });
});
