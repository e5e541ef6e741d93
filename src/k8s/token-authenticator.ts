/**
 * Authenticates a bearer token as kube-apiserver's service account authenticator does for a
 * TokenReview (pkg/serviceaccount/jwt.go and claims.go, behind the bearer token and group
 * authenticators): a token not a JWT of this issuer has no authenticator's opinion (`invalid
 * bearer token`); else the signature, the audiences (the token's against the requested ones, the
 * apiserver's by default), expiry and not-before (one minute's leeway), and that the
 * ServiceAccount — and the Pod or Secret the token is bound to — still exist with the uid the
 * token names. An authenticated user is `system:serviceaccount:NS:NAME` with the account's uid,
 * its groups and `system:authenticated`, and for a Pod-bound token the pod name and uid as extra.
 */
import type { KeyObject } from 'node:crypto';
import { parseJwt, verifyJwt } from './jwt';
import { API_AUDIENCES, SERVICE_ACCOUNT_ISSUER, serviceAccountGroups, serviceAccountUsername } from './service-account-claims';

type Obj = Record<string, any>;

/** go-jose's jwt.DefaultLeeway. */
const LEEWAY_SECONDS = 60;
export const POD_NAME_EXTRA = 'authentication.kubernetes.io/pod-name';
export const POD_UID_EXTRA = 'authentication.kubernetes.io/pod-uid';

export interface TokenUser {
  username: string;
  uid: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export type TokenAuthentication = { authenticated: true; user: TokenUser; audiences: string[] } | { authenticated: false; error: string };

export interface TokenAuthenticatorContext {
  /** The issuer's public key; undefined while no token was issued (nothing verifies). */
  publicKey: KeyObject | undefined;
  /** Server time, ms since the epoch. */
  now: number;
  /** The audiences asked for; empty means the apiserver's. */
  audiences: readonly string[];
  /** The live object, or undefined when there is none. */
  lookup(resource: 'serviceaccounts' | 'pods' | 'secrets', namespace: string, name: string): Obj | undefined;
}

export function authenticateToken(token: string, ctx: TokenAuthenticatorContext): TokenAuthentication {
  const fail = (error: string): TokenAuthentication => ({ authenticated: false, error });
  const jwt = parseJwt(token);
  if (!jwt || jwt.claims.iss !== SERVICE_ACCOUNT_ISSUER) return fail('invalid bearer token');
  if (!ctx.publicKey || !verifyJwt(jwt, ctx.publicKey)) return fail('square/go-jose: error in cryptographic primitive');
  const claims = jwt.claims;
  const tokenAudiences = audienceList(claims.aud);
  const effective = tokenAudiences.length > 0 ? tokenAudiences : [...API_AUDIENCES];
  const requested = ctx.audiences.length > 0 ? [...ctx.audiences] : [...API_AUDIENCES];
  const audiences = effective.filter((a) => requested.includes(a));
  if (audiences.length === 0) return fail(`token audiences ${goQuoted(effective)} is invalid for the target audiences ${goQuoted(requested)}`);

  const now = Math.floor(ctx.now / 1000);
  // go-jose's order: not before, expiry, issued at.
  if (typeof claims.nbf === 'number' && now + LEEWAY_SECONDS < claims.nbf) return fail('service account token is not valid yet');
  if (typeof claims.exp === 'number' && now - LEEWAY_SECONDS > claims.exp) return fail('service account token has expired');
  if (typeof claims.iat === 'number' && now + LEEWAY_SECONDS < claims.iat) return fail('service account token is issued in the future');

  const k8s: Obj = claims['kubernetes.io'] ?? {};
  const namespace = String(k8s.namespace ?? '');
  const saName = String(k8s.serviceaccount?.name ?? '');
  const saUid = String(k8s.serviceaccount?.uid ?? '');
  const deletedBefore = (obj: Obj) => typeof obj.metadata?.deletionTimestamp === 'string' && Date.parse(obj.metadata.deletionTimestamp) / 1000 < now - LEEWAY_SECONDS;
  const account = ctx.lookup('serviceaccounts', namespace, saName);
  if (!account) return fail(`serviceaccounts "${saName}" not found`);
  if (deletedBefore(account)) return fail(`service account ${namespace}/${saName} has been deleted`);
  const accountUid = String(account.metadata?.uid ?? '');
  if (accountUid !== saUid) return fail(`service account UID (${accountUid}) does not match claim (${saUid})`);

  if (k8s.secret) {
    const secret = ctx.lookup('secrets', namespace, String(k8s.secret.name ?? ''));
    if (!secret || deletedBefore(secret)) return fail('service account token has been invalidated');
    const uid = String(secret.metadata?.uid ?? '');
    if (uid !== String(k8s.secret.uid ?? '')) return fail(`secret UID (${uid}) does not match service account secret ref claim (${k8s.secret.uid ?? ''})`);
  }
  let extra: Record<string, string[]> | undefined;
  if (k8s.pod) {
    const podName = String(k8s.pod.name ?? '');
    const podUid = String(k8s.pod.uid ?? '');
    const pod = ctx.lookup('pods', namespace, podName);
    if (!pod || deletedBefore(pod)) return fail('service account token has been invalidated');
    const uid = String(pod.metadata?.uid ?? '');
    if (uid !== podUid) return fail(`pod UID (${uid}) does not match service account pod ref claim (${podUid})`);
    if (podName && podUid) extra = { [POD_NAME_EXTRA]: [podName], [POD_UID_EXTRA]: [podUid] };
  }
  const user: TokenUser = {
    username: serviceAccountUsername(namespace, saName),
    uid: saUid,
    groups: [...serviceAccountGroups(namespace), 'system:authenticated'],
  };
  if (extra) user.extra = extra;
  return { authenticated: true, user, audiences };
}

function audienceList(aud: unknown): string[] {
  if (typeof aud === 'string') return aud ? [aud] : [];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** Go's %q of a []string: `["a" "b"]`. */
function goQuoted(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}
