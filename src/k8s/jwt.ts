/**
 * RS256 JSON Web Tokens in compact serialization, as go-jose (the apiserver's token issuer) writes
 * them: header `{"alg":"RS256","kid":…}`, claims with their keys sorted (go-jose merges the claim
 * sets into a map before encoding), base64url without padding. The key id is the apiserver's
 * keyIDFromPublicKey: base64url of the SHA-256 of the public key's PKIX DER encoding. Signing and
 * verifying are deterministic (RSASSA-PKCS1-v1_5): the keys are passed in.
 */
import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import { isPlainObject, withSortedKeys } from '../wire/json-object';

type Obj = Record<string, any>;

export interface ParsedJwt {
  header: Obj;
  claims: Obj;
  /** `header.payload`, what the signature covers. */
  signingInput: string;
  signature: Buffer;
}

/** The apiserver's key id for a public key. */
export function jwtKeyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** The signed token: `header.claims.signature`. */
export function signJwt(claims: Obj, privateKey: KeyObject, kid: string): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', kid }));
  const payload = base64url(JSON.stringify(withSortedKeys(claims)));
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The token's parts, or undefined for what is not a compact JWS with JSON header and claims. */
export function parseJwt(token: string): ParsedJwt | undefined {
  if (token.trim().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every(isBase64url)) return undefined;
  const header = parseJson(parts[0]!);
  const claims = parseJson(parts[1]!);
  if (!header || !claims) return undefined;
  return { header, claims, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2]!, 'base64url') };
}

/** Whether the token is RS256 and its signature verifies with the key. */
export function verifyJwt(jwt: ParsedJwt, publicKey: KeyObject): boolean {
  if (jwt.header.alg !== 'RS256') return false;
  return verify('sha256', Buffer.from(jwt.signingInput), publicKey, jwt.signature);
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function isBase64url(part: string): boolean {
  return /^[A-Za-z0-9_-]*$/.test(part);
}

function parseJson(part: string): Obj | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

