import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { jwtKeyId, signJwt } from './jwt';
import { serviceAccountClaims } from './service-account-claims';
import { authenticateToken, type TokenAuthenticatorContext } from './token-authenticator';

/** Service account tokens: the JWT decoded and verified with node:crypto alone, and what TokenReview makes of them. */
describe('service account tokens', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = jwtKeyId(publicKey);
  const NOW = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
  const account = { metadata: { name: 'robot', namespace: 'ns1', uid: 'sa-uid' } };
  const pod = { metadata: { name: 'web', namespace: 'ns1', uid: 'pod-uid' } };
  const issue = (extra: Partial<Parameters<typeof serviceAccountClaims>[0]> = {}) =>
    signJwt(
      serviceAccountClaims({ namespace: 'ns1', serviceAccount: { name: 'robot', uid: 'sa-uid' }, audiences: ['https://kubernetes.default.svc.cluster.local'], now: NOW, expirationSeconds: 3600, ...extra }),
      privateKey,
      kid,
    );
  const objects: Record<string, any> = { 'serviceaccounts/ns1/robot': account, 'pods/ns1/web': pod };
  const ctx = (over: Partial<TokenAuthenticatorContext> = {}): TokenAuthenticatorContext => ({
    publicKey,
    now: NOW + 1000,
    audiences: [],
    lookup: (resource, ns, name) => objects[`${resource}/${ns}/${name}`],
    ...over,
  });

  it('is an RS256 JWT whose signature verifies and whose claims are the apiserver’s, keys sorted', () => {
    const token = issue();
    const [h, p, s] = token.split('.');
    const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
    expect(header).toEqual({ alg: 'RS256', kid });
    // The key id: base64url SHA-256 of the PKIX DER public key, 43 characters, no padding.
    expect(kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verify('sha256', Buffer.from(`${h}.${p}`), createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })), Buffer.from(s!, 'base64url'))).toBe(true);
    expect(verify('sha256', Buffer.from(`${h}.${p}x`), publicKey, Buffer.from(s!, 'base64url'))).toBe(false);
    const payload = Buffer.from(p!, 'base64url').toString();
    const iat = Math.floor(NOW / 1000);
    expect(JSON.parse(payload)).toEqual({
      aud: ['https://kubernetes.default.svc.cluster.local'],
      exp: iat + 3600,
      iat,
      iss: 'https://kubernetes.default.svc.cluster.local',
      'kubernetes.io': { namespace: 'ns1', serviceaccount: { name: 'robot', uid: 'sa-uid' } },
      nbf: iat,
      sub: 'system:serviceaccount:ns1:robot',
    });
    expect(Object.keys(JSON.parse(payload))).toEqual(['aud', 'exp', 'iat', 'iss', 'kubernetes.io', 'nbf', 'sub']);
    expect(token).not.toMatch(/=/);
  });

  it('names a bound Pod (and warnafter) or Secret in kubernetes.io', () => {
    const podToken = issue({ pod: { name: 'web', uid: 'pod-uid' }, expirationSeconds: 31536000, warnAfterSeconds: 3607 });
    const claims = JSON.parse(Buffer.from(podToken.split('.')[1]!, 'base64url').toString());
    expect(claims['kubernetes.io']).toEqual({ namespace: 'ns1', pod: { name: 'web', uid: 'pod-uid' }, serviceaccount: { name: 'robot', uid: 'sa-uid' }, warnafter: Math.floor(NOW / 1000) + 3607 });
    const secretToken = issue({ secret: { name: 's', uid: 'sec-uid' } });
    expect(JSON.parse(Buffer.from(secretToken.split('.')[1]!, 'base64url').toString())['kubernetes.io'].secret).toEqual({ name: 's', uid: 'sec-uid' });
  });

  it('authenticates an issued token as the service account', () => {
    expect(authenticateToken(issue(), ctx())).toEqual({
      authenticated: true,
      user: { username: 'system:serviceaccount:ns1:robot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
    });
  });

  it('adds the pod name and uid as extra for a Pod-bound token, and refuses it once the pod is gone', () => {
    const token = issue({ pod: { name: 'web', uid: 'pod-uid' } });
    const ok = authenticateToken(token, ctx());
    expect(ok).toMatchObject({ authenticated: true, user: { extra: { 'authentication.kubernetes.io/pod-name': ['web'], 'authentication.kubernetes.io/pod-uid': ['pod-uid'] } } });
    const gone = authenticateToken(token, ctx({ lookup: (r, ns, n) => (r === 'pods' ? undefined : objects[`${r}/${ns}/${n}`]) }));
    expect(gone).toEqual({ authenticated: false, error: 'service account token has been invalidated' });
  });

  it('refuses garbage, another key’s signature, other audiences, an expired token and a replaced account', () => {
    expect(authenticateToken('not-a-token', ctx())).toEqual({ authenticated: false, error: 'invalid bearer token' });
    const other = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(authenticateToken(issue(), ctx({ publicKey: other.publicKey }))).toEqual({ authenticated: false, error: 'square/go-jose: error in cryptographic primitive' });
    expect(authenticateToken(issue({ audiences: ['x'] }), ctx())).toEqual({
      authenticated: false,
      error: 'token audiences ["x"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
    });
    expect(authenticateToken(issue({ audiences: ['x', 'y'] }), ctx({ audiences: ['y'] }))).toMatchObject({ authenticated: true, audiences: ['y'] });
    // One minute's leeway past exp.
    expect(authenticateToken(issue({ expirationSeconds: 600 }), ctx({ now: NOW + 659_000 }))).toMatchObject({ authenticated: true });
    expect(authenticateToken(issue({ expirationSeconds: 600 }), ctx({ now: NOW + 662_000 }))).toEqual({ authenticated: false, error: 'service account token has expired' });
    expect(authenticateToken(issue(), ctx({ lookup: () => undefined }))).toEqual({ authenticated: false, error: 'serviceaccounts "robot" not found' });
    const replaced = { metadata: { ...account.metadata, uid: 'new-uid' } };
    expect(authenticateToken(issue(), ctx({ lookup: (r) => (r === 'serviceaccounts' ? replaced : undefined) }))).toEqual({
      authenticated: false,
      error: 'service account UID (new-uid) does not match claim (sa-uid)',
    });
  });
});
