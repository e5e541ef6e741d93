/**
 * SelfSubjectAccessReview and SelfSubjectRulesReview (authorization.k8s.io/v1), answered as a
 * cluster with the AlwaysAllow authorizer answers them: create-only virtual resources, nothing
 * stored, the posted review returned (`201`) with its status filled in — `kubectl auth can-i` →
 * `yes`, `kubectl auth can-i --list` → every verb on every resource. kubectl posts them as
 * protobuf: a protobuf review is answered as protobuf, its metadata and spec copied byte for byte.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../k8s/request-info';
import { badRequest } from '../k8s/status';
import { decodeEnvelope, encodeEnvelope } from '../wire/protobuf';
import { FieldReader, ProtoWriter } from '../wire/protobuf-fields';
import { writeBody, writeRawBody } from './response-body';
import { mediaType, readBody } from './writes/request-body';

type Obj = Record<string, any>;

const GROUP = 'authorization.k8s.io';
const VERSION = 'v1';
const STATUS_FIELD = 3;

interface Review {
  kind: string;
  /** The status as JSON (omitempty fields left out, as Go's encoder leaves them). */
  json: Obj;
  /** The status message as Go's generated marshaller writes it (every field, empty ones too). */
  protobuf(): ProtoWriter;
}

/** What AlwaysAllow's RulesFor returns: every verb on everything, complete. */
const REVIEWS: Record<string, Review> = {
  selfsubjectaccessreviews: {
    kind: 'SelfSubjectAccessReview',
    json: { allowed: true },
    // SubjectAccessReviewStatus: allowed, reason, evaluationError, denied.
    protobuf: () => new ProtoWriter().varint(1, 1).string(2, '').string(3, '').varint(4, 0),
  },
  selfsubjectrulesreviews: {
    kind: 'SelfSubjectRulesReview',
    json: {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    },
    // SubjectRulesReviewStatus: resourceRules (ResourceRule: verbs, apiGroups, resources), nonResourceRules (verbs, nonResourceURLs), incomplete, evaluationError.
    protobuf: () =>
      new ProtoWriter()
        .message(1, new ProtoWriter().string(1, '*').string(2, '*').string(3, '*'))
        .message(2, new ProtoWriter().string(1, '*').string(2, '*'))
        .varint(3, 0)
        .string(4, ''),
  },
};

/** Whether the request creates a SelfSubjectAccessReview or SelfSubjectRulesReview. */
export function isAccessReview(info: RequestInfo): boolean {
  return info.verb === 'create' && info.apiGroup === GROUP && info.apiVersion === VERSION && !info.namespace && !info.name && !info.subresource && info.resource in REVIEWS;
}

/** Answers a review create (see isAccessReview): `201` with the posted review and an allow-all status. */
export async function answerAccessReview(req: IncomingMessage, res: ServerResponse, info: RequestInfo): Promise<void> {
  const review = REVIEWS[info.resource]!;
  const body = await readBody(req);
  if (mediaType(req.headers['content-type']) === 'application/vnd.kubernetes.protobuf') {
    let message: Buffer;
    try {
      message = withStatus(decodeEnvelope(body).raw, review.protobuf());
    } catch (err) {
      throw badRequest(`the object provided is unrecognized (must be of type ${review.kind}): ${(err as Error).message}`);
    }
    writeRawBody(res, 201, encodeEnvelope({ apiVersion: `${GROUP}/${VERSION}`, kind: review.kind }, message), 'application/vnd.kubernetes.protobuf');
    return;
  }
  const posted = parseReview(body, review.kind);
  const answer = {
    kind: review.kind,
    apiVersion: `${GROUP}/${VERSION}`,
    metadata: { creationTimestamp: null, ...(posted.metadata ?? {}) },
    spec: posted.spec ?? {},
    status: review.json,
  };
  writeBody(req, res, 201, JSON.stringify(answer), 'application/json');
}

/** The posted message with its status field replaced (metadata and spec copied as sent). */
function withStatus(message: Buffer, status: ProtoWriter): Buffer {
  const out = new ProtoWriter();
  const f = new FieldReader(message, 0);
  while (f.next()) if (f.no !== STATUS_FIELD) out.raw(message.subarray(f.tagStart, f.end));
  return out.message(STATUS_FIELD, status).finish();
}

function parseReview(body: Buffer, kind: string): Obj {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw badRequest(`the object provided is unrecognized (must be of type ${kind}): ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`the object provided is unrecognized (must be of type ${kind})`);
  return value as Obj;
}
