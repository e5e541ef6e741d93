import { expiredContinue } from './actions';
import { inconsistentContinue } from './continue-expiry';

const b64 = (s: string) => Buffer.from(s).toString('base64url');

describe('inconsistentContinue', () => {
  it('the apiserver’s token with rv -1 (a1 → b1)', () => {
    expect(inconsistentContinue('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjMyLCJzdGFydCI6ImNtLTA1XHUwMDAwIn0')).toBe(
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiY20tMDVcdTAwMDAifQ',
    );
  });

  it('escapes a start key the way Go does', () => {
    const token = inconsistentContinue(b64('{"v":"meta.k8s.io/v1","rv":9,"start":"ns/a<b>&c\\u0000"}'))!;
    expect(Buffer.from(token, 'base64url').toString()).toBe('{"v":"meta.k8s.io/v1","rv":-1,"start":"ns/a\\u003cb\\u003e\\u0026c\\u0000"}');
  });

  it('undefined for what is not an apiserver token; the 410 then carries no token', () => {
    expect(inconsistentContinue('not-a-token')).toBeUndefined();
    expect(inconsistentContinue(b64('{"rv":"x"}'))).toBeUndefined();
    expect(expiredContinue('not-a-token').status.metadata).toEqual({});
    expect(expiredContinue('not-a-token').code).toBe(410);
  });
});
