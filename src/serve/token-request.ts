/**
 * TokenRequest (`POST /api/v1/namespaces/NS/serviceaccounts/NAME/token`), answered as
 * kube-apiserver v1.26 answers it (pkg/registry/core/serviceaccount/storage/token.go): the
 * posted name and namespace must match the URL's; the ServiceAccount must exist; audiences
 * default to the apiserver's, `expirationSeconds` to 3600 (10 minutes to 2^32 s); a
 * `boundObjectRef` names a Pod (running as that account) or Secret that must exist, with the uid
 * given; a Pod-bound 3607 s token for the apiserver's audiences lasts a year and warns after
 * 3607 s. The answer (`201`) is the request with name, namespace and creationTimestamp filled in
 * and `status.token`, an RS256 JWT signed by serve's key, with its expirationTimestamp.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../k8s/request-info';
import {
  API_AUDIENCES,
  EXPIRATION_EXTENSION_SECONDS,
  WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS,
  serviceAccountClaims,
  type ObjectRef,
} from '../k8s/service-account-claims';
import { badRequest, notFound } from '../k8s/status';
import { validateTokenRequest } from '../k8s/token-request-validation';
import { invalidField } from '../k8s/field-errors';
import { invalidObject, writeConflict } from '../k8s/write-status';
import { isPlainObject } from '../wire/json-object';
import { liveObject } from './live-object';
import { readReview, writeReview, type ReviewKind } from './review-body';
import type { TokenSigner } from './token-signer';
import { timestamp, type WriteDeps } from './writes/write-deps';
import { NAMESPACE_MISMATCH } from './writes/create';

type Obj = Record<string, any>;

const TOKEN_REQUEST: ReviewKind = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };
const DEFAULT_EXPIRATION_SECONDS = 3600;

/** Whether the request creates a token for a ServiceAccount. */
export function isTokenRequest(info: RequestInfo): boolean {
  return info.verb === 'create' && info.apiGroup === '' && info.apiVersion === 'v1' && info.resource === 'serviceaccounts' && info.subresource === 'token' && !!info.namespace && !!info.name;
}

export async function answerTokenRequest(req: IncomingMessage, res: ServerResponse, info: RequestInfo, deps: WriteDeps, signer: TokenSigner): Promise<void> {
  const posted = await readReview(req, TOKEN_REQUEST);
  const request = posted.obj;
  const namespace = info.namespace;
  const name = info.name;
  const meta: Obj = isPlainObject(request.metadata) ? { ...request.metadata } : {};
  const invalid = (field: string, value: string, detail: string) => invalidObject('TokenRequest', TOKEN_REQUEST.group, name, [invalidField(field, value, detail)]);
  // The create handler compares the namespace first (400); TokenREST then the name (422).
  if (meta.namespace && meta.namespace !== namespace) throw badRequest(NAMESPACE_MISMATCH);
  if (meta.name && meta.name !== name) throw invalid('metadata.name', meta.name, 'must match the service account name if specified');

  const account = liveObject(deps, '', 'v1', 'serviceaccounts', namespace, name);
  if (!account) throw notFound('serviceaccounts', name);
  const spec: Obj = isPlainObject(request.spec) ? { ...request.spec } : {};
  if (!Array.isArray(spec.audiences) || spec.audiences.length === 0) spec.audiences = [...API_AUDIENCES];
  if (spec.expirationSeconds === undefined || spec.expirationSeconds === null) spec.expirationSeconds = DEFAULT_EXPIRATION_SECONDS;
  const expirationSeconds = Number(spec.expirationSeconds);
  if (!Number.isInteger(expirationSeconds)) throw badRequest(`the object provided is unrecognized (must be of type TokenRequest): spec.expirationSeconds must be an integer`);
  const now = deps.now();
  const metadata = objectMeta(meta, name, namespace, timestamp(now));

  const errors = validateTokenRequest(expirationSeconds);
  if (errors.length > 0) throw invalidObject('TokenRequest', TOKEN_REQUEST.group, '', errors);

  const bound = boundObject(spec.boundObjectRef, namespace, name, deps);
  let exp = expirationSeconds;
  let warnAfterSeconds = 0;
  const apiAudiencesOnly = (spec.audiences as unknown[]).every((a) => API_AUDIENCES.includes(a as string));
  if (bound.pod && expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && apiAudiencesOnly) {
    warnAfterSeconds = exp;
    exp = EXPIRATION_EXTENSION_SECONDS;
  }
  const token = signer.sign(
    serviceAccountClaims({
      namespace,
      serviceAccount: { name: account.metadata?.name ?? name, uid: account.metadata?.uid ?? '' },
      ...bound,
      audiences: spec.audiences as string[],
      now,
      expirationSeconds: exp,
      warnAfterSeconds,
    }),
  );
  const status = { token, expirationTimestamp: timestamp(now + expirationSeconds * 1000) };
  writeReview(req, res, TOKEN_REQUEST, posted, { metadata, spec: tokenRequestSpec(spec), status });
}

/** The Pod or Secret a token is bound to, checked as the apiserver checks it. */
function boundObject(ref: unknown, namespace: string, account: string, deps: WriteDeps): { pod?: ObjectRef; secret?: ObjectRef } {
  if (!isPlainObject(ref)) return {};
  const apiVersion = String(ref.apiVersion ?? '');
  const kind = String(ref.kind ?? '');
  const refName = String(ref.name ?? '');
  const slash = apiVersion.indexOf('/');
  const group = slash >= 0 ? apiVersion.slice(0, slash) : '';
  const version = slash >= 0 ? apiVersion.slice(slash + 1) : apiVersion;
  let found: Obj | undefined;
  let out: { pod?: ObjectRef; secret?: ObjectRef };
  if (group === '' && kind === 'Pod') {
    found = liveObject(deps, '', 'v1', 'pods', namespace, refName);
    if (!found) throw notFound('pods', refName);
    if ((found.spec?.serviceAccountName ?? '') !== account) throw badRequest(`cannot bind token for serviceaccount "${account}" to pod running with different serviceaccount name.`);
    out = { pod: { name: refName, uid: found.metadata?.uid ?? '' } };
  } else if (group === '' && kind === 'Secret') {
    found = liveObject(deps, '', 'v1', 'secrets', namespace, refName);
    if (!found) throw notFound('secrets', refName);
    out = { secret: { name: refName, uid: found.metadata?.uid ?? '' } };
  } else {
    throw badRequest(`cannot bind token to object of type ${gvkString(group, version, kind)}`);
  }
  const uid = String(ref.uid ?? '');
  if (uid && uid !== (found.metadata?.uid ?? '')) {
    throw writeConflict(kind, group, refName, `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return out;
}

/** schema.GroupVersionKind.String(): `/v1, Kind=Node`, `apps/v1, Kind=Deployment`. */
function gvkString(group: string, version: string, kind: string): string {
  return `${group}/${version}, Kind=${kind}`;
}

/** ObjectMeta in Go field order: name, namespace and creationTimestamp set, what else was posted kept. */
function objectMeta(posted: Obj, name: string, namespace: string, created: string): Obj {
  const { name: _n, generateName, namespace: _ns, creationTimestamp: _c, ...rest } = posted;
  const out: Obj = { name: posted.name || name };
  if (generateName) out.generateName = generateName;
  out.namespace = posted.namespace || namespace;
  for (const key of ['selfLink', 'uid', 'resourceVersion', 'generation']) {
    if (rest[key] !== undefined) out[key] = rest[key];
    delete rest[key];
  }
  out.creationTimestamp = created;
  return { ...out, ...rest };
}

/** TokenRequestSpec in Go field order: audiences, expirationSeconds, boundObjectRef (kind, apiVersion, name, uid). */
function tokenRequestSpec(spec: Obj): Obj {
  const out: Obj = { audiences: spec.audiences, expirationSeconds: Number(spec.expirationSeconds) };
  if (isPlainObject(spec.boundObjectRef)) {
    const ref = spec.boundObjectRef;
    const bound: Obj = {};
    for (const key of ['kind', 'apiVersion', 'name', 'uid']) if (ref[key]) bound[key] = ref[key];
    out.boundObjectRef = bound;
  }
  return out;
}
