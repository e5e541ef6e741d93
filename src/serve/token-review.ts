/**
 * TokenReview (`POST /apis/authentication.k8s.io/v1/tokenreviews`), answered as kube-apiserver
 * v1.26 answers it (pkg/registry/authentication/tokenreview): a token is required; the posted
 * review comes back (`201`, nothing stored) with its status: `authenticated`, the user, the
 * audiences the token is good for, or the authenticator's `error` (src/k8s/token-authenticator.ts
 * for what serve accepts: the service account tokens it issued).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../k8s/request-info';
import { badRequest } from '../k8s/status';
import { authenticateToken } from '../k8s/token-authenticator';
import { isPlainObject } from '../wire/json-object';
import { liveObject } from './live-object';
import { readReview, writeReview, type ReviewKind } from './review-body';
import type { TokenSigner } from './token-signer';
import type { WriteDeps } from './writes/write-deps';

type Obj = Record<string, any>;

const TOKEN_REVIEW: ReviewKind = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenReview' };

export function isTokenReview(info: RequestInfo): boolean {
  return info.verb === 'create' && info.apiGroup === TOKEN_REVIEW.group && info.apiVersion === 'v1' && info.resource === 'tokenreviews' && !info.namespace && !info.name && !info.subresource;
}

export async function answerTokenReview(req: IncomingMessage, res: ServerResponse, deps: WriteDeps, signer: TokenSigner): Promise<void> {
  const posted = await readReview(req, TOKEN_REVIEW);
  const spec: Obj = isPlainObject(posted.obj.spec) ? posted.obj.spec : {};
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (!token) throw badRequest('token is required for TokenReview in authentication');
  const audiences = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
  const result = authenticateToken(token, {
    publicKey: signer.publicKey,
    now: deps.now(),
    audiences,
    lookup: (resource, namespace, name) => liveObject(deps, '', 'v1', resource, namespace, name),
  });
  const status: Obj = {};
  if (result.authenticated) {
    status.authenticated = true;
    status.user = result.user;
    status.audiences = result.audiences;
  } else {
    status.user = {};
    status.error = result.error;
  }
  const metadata: Obj = { creationTimestamp: null, ...(isPlainObject(posted.obj.metadata) ? posted.obj.metadata : {}) };
  delete metadata.namespace; // cluster-scoped: the create clears it
  const answerSpec: Obj = { token };
  if (audiences.length > 0) answerSpec.audiences = audiences;
  writeReview(req, res, TOKEN_REVIEW, posted, { metadata, spec: answerSpec, status });
}
