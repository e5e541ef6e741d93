/**
 * SubjectAccessReview (`POST /apis/authorization.k8s.io/v1/subjectaccessreviews`) and
 * LocalSubjectAccessReview (`…/namespaces/NS/localsubjectaccessreviews`), answered as a v1.26
 * cluster with the AlwaysAllow authorizer answers them (pkg/registry/authorization/
 * subjectaccessreview, localsubjectaccessreview): the review validated (422 as Go words it, the
 * kind left empty as the internal object has it), then returned (`201`, nothing stored) with
 * `status.allowed: true`. A local review's namespace is the request's: filled in when the body
 * has none, a different one refused.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../k8s/request-info';
import { badRequest } from '../k8s/status';
import { validateLocalSubjectAccessReview, validateSubjectAccessReview } from '../k8s/subject-access-review-validation';
import { invalidObject } from '../k8s/write-status';
import { isPlainObject } from '../wire/json-object';
import { readReview, writeReview, type ReviewKind } from './review-body';
import { NAMESPACE_MISMATCH } from './writes/create';

type Obj = Record<string, any>;

const GROUP = 'authorization.k8s.io';
const SAR: ReviewKind = { group: GROUP, version: 'v1', kind: 'SubjectAccessReview' };
const LSAR: ReviewKind = { group: GROUP, version: 'v1', kind: 'LocalSubjectAccessReview' };

export function isSubjectAccessReview(info: RequestInfo): boolean {
  if (info.verb !== 'create' || info.apiGroup !== GROUP || info.apiVersion !== 'v1' || info.name || info.subresource) return false;
  return (info.resource === 'subjectaccessreviews' && !info.namespace) || (info.resource === 'localsubjectaccessreviews' && !!info.namespace);
}

export async function answerSubjectAccessReview(req: IncomingMessage, res: ServerResponse, info: RequestInfo): Promise<void> {
  const local = info.resource === 'localsubjectaccessreviews';
  const type = local ? LSAR : SAR;
  const posted = await readReview(req, type);
  const review = posted.obj;
  const metadata: Obj = { creationTimestamp: null, ...(isPlainObject(review.metadata) ? review.metadata : {}) };
  if (local) {
    if (metadata.namespace && metadata.namespace !== info.namespace) throw badRequest(NAMESPACE_MISMATCH);
    metadata.namespace = info.namespace;
  } else {
    // A cluster-scoped create clears the namespace the body names (EnsureObjectNamespaceMatchesRequestNamespace).
    delete metadata.namespace;
  }
  const checked = { ...review, metadata };
  const errors = local ? validateLocalSubjectAccessReview(checked) : validateSubjectAccessReview(checked);
  if (errors.length > 0) throw invalidObject('', GROUP, '', errors);
  const spec = isPlainObject(review.spec) ? review.spec : {};
  writeReview(req, res, type, posted, { metadata, spec, status: { allowed: true } });
}

