/**
 * The token the apiserver hands back with a 410 for an expired continue token: the same token
 * with `"rv":-1`, which continues the list at the current revision (an inconsistent list).
 * Transcripts: b1-continue-after-compaction-410.txt, a1-continue-token-decoded.txt.
 *
 * Kept here (not in src/k8s/continue-token.ts) because a fault must rewrite any apiserver's token,
 * also one recorded from a real cluster, whatever serve mode's own codec accepts.
 */
import { goJson } from '../wire/json-spans';

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

/** The rv:-1 twin of `token`, or undefined when the token is not an apiserver continue token. */
export function inconsistentContinue(token: string): string | undefined {
  const decoded = decode(token);
  if (!decoded) return undefined;
  return encode({ v: decoded.v, rv: -1, start: decoded.start });
}

function decode(token: string): ContinueToken | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { v, rv, start } = parsed as Partial<ContinueToken>;
    if (typeof v !== 'string' || typeof rv !== 'number' || typeof start !== 'string') return undefined;
    return { v, rv, start };
  } catch {
    return undefined;
  }
}

/** Go's encoding/json field order and escaping (it escapes <, >, &, U+2028 and U+2029), unpadded base64url. */
function encode(token: ContinueToken): string {
  const json = `{"v":${goJson(token.v)},"rv":${token.rv},"start":${goJson(token.start)}}`;
  return Buffer.from(json, 'utf8').toString('base64url');
}

