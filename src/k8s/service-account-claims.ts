/**
 * The claims of a service account token as kube-apiserver's TokenRequest issues them
 * (pkg/serviceaccount/claims.go): `iss`, `sub` `system:serviceaccount:NS:NAME`, `aud`, `iat`,
 * `nbf` and `exp` in seconds, and `kubernetes.io` naming the namespace, the ServiceAccount (name
 * and uid) and the Pod or Secret the token is bound to; `warnafter` where a Pod-bound token's
 * expiration was extended.
 */

type Obj = Record<string, any>;

/** The issuer and the apiserver's audience (kubeadm's `--service-account-issuer`). */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const API_AUDIENCES: readonly string[] = [SERVICE_ACCOUNT_ISSUER];

/** A Pod-bound token asking for 3607 s (what admission mounts) is extended to a year, warning after 3607 s. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;

export interface ObjectRef {
  name: string;
  uid: string;
}

export interface TokenClaimsInput {
  namespace: string;
  serviceAccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  audiences: readonly string[];
  /** Issue time, ms since the epoch (truncated to seconds as go-jose's NumericDate). */
  now: number;
  expirationSeconds: number;
  /** Seconds after issue when a stale-token warning starts; 0 for none. */
  warnAfterSeconds?: number;
}

/** `system:serviceaccount:NS:NAME`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The groups a service account is in (the authenticator adds `system:authenticated`). */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

export function serviceAccountClaims(input: TokenClaimsInput): Obj {
  const iat = Math.floor(input.now / 1000);
  const kubernetes: Obj = { namespace: input.namespace, serviceaccount: ref(input.serviceAccount) };
  if (input.pod) kubernetes.pod = ref(input.pod);
  else if (input.secret) kubernetes.secret = ref(input.secret);
  if (input.warnAfterSeconds) kubernetes.warnafter = iat + input.warnAfterSeconds;
  return {
    aud: [...input.audiences],
    exp: iat + input.expirationSeconds,
    iat,
    iss: SERVICE_ACCOUNT_ISSUER,
    'kubernetes.io': kubernetes,
    nbf: iat,
    sub: serviceAccountUsername(input.namespace, input.serviceAccount.name),
  };
}

/** name and uid, each left out when empty (Go's omitempty). */
function ref(r: ObjectRef): Obj {
  const out: Obj = {};
  if (r.name) out.name = r.name;
  if (r.uid) out.uid = r.uid;
  return out;
}
