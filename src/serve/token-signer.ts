/**
 * The key serve signs service account tokens with: a 2048-bit RSA key made on the first token
 * request (node:crypto), kept for the server's life, so tokens verify until serve stops.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { jwtKeyId, signJwt } from '../k8s/jwt';

type Obj = Record<string, any>;

export class TokenSigner {
  private key: { privateKey: KeyObject; publicKey: KeyObject; kid: string } | undefined;

  /** The public key, or undefined while no token was signed. */
  get publicKey(): KeyObject | undefined {
    return this.key?.publicKey;
  }

  sign(claims: Obj): string {
    const key = (this.key ??= makeKey());
    return signJwt(claims, key.privateKey, key.kid);
  }
}

function makeKey(): { privateKey: KeyObject; publicKey: KeyObject; kid: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicKey, kid: jwtKeyId(publicKey) };
}
