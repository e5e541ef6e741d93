/**
 * The request and answer bodies of serve's create-only virtual resources (TokenRequest,
 * TokenReview, SubjectAccessReview, LocalSubjectAccessReview): the posted object as JSON (from a JSON or
 * YAML body, or a protobuf one decoded with the shipped descriptors) and the answer
 * written in the encoding the client posted, `201 Created` as the apiserver answers a create.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { yaml } from '../wire/yaml';
import { badRequest } from '../k8s/status';
import { unsupportedBodyType } from '../k8s/write-status';
import { decodeEnvelope } from '../wire/protobuf';
import { isPlainObject } from '../wire/json-object';
import { builtinProtobuf } from './builtin-protobuf';
import { writeBody, writeRawBody } from './response-body';
import { checkBodyFieldTypes } from './writes/field-types';
import { DECODED_BODY_TYPES, mediaType, readBody, PROTOBUF_BODY_TYPE } from './writes/request-body';

type Obj = Record<string, any>;

export interface ReviewKind {
  group: string;
  version: string;
  kind: string;
}

export interface PostedReview {
  obj: Obj;
  protobuf: boolean;
}

export async function readReview(req: IncomingMessage, type: ReviewKind): Promise<PostedReview> {
  const body = await readBody(req);
  const media = mediaType(req.headers['content-type']);
  if (media !== 'application/json' && media !== 'application/yaml' && media !== PROTOBUF_BODY_TYPE) throw unsupportedBodyType([...DECODED_BODY_TYPES, PROTOBUF_BODY_TYPE]);
  const unrecognized = (detail?: string) => badRequest(`the object provided is unrecognized (must be of type ${type.kind})${detail ? `: ${detail}` : ''}`);
  if (media === PROTOBUF_BODY_TYPE) {
    const message = builtinProtobuf().schema.kindMessage(type.group, type.version, type.kind);
    try {
      return { obj: builtinProtobuf().decode(message!, decodeEnvelope(body).raw), protobuf: true };
    } catch (err) {
      throw unrecognized((err as Error).message);
    }
  }
  let value: unknown;
  try {
    const text = body.toString('utf8');
    value = media === 'application/yaml' ? yaml().parse(text) : JSON.parse(text);
  } catch (err) {
    throw unrecognized((err as Error).message);
  }
  if (!isPlainObject(value)) throw unrecognized();
  checkBodyFieldTypes(type.group ? `${type.group}/${type.version}` : type.version, type.kind, value);
  return { obj: value, protobuf: false };
}

/** `201` with the answer: `kind` and `apiVersion` first, then the object's fields in Go struct order. */
export function writeReview(req: IncomingMessage, res: ServerResponse, type: ReviewKind, posted: PostedReview, answer: Obj): void {
  const apiVersion = type.group ? `${type.group}/${type.version}` : type.version;
  const message = builtinProtobuf().schema.kindMessage(type.group, type.version, type.kind)!;
  const obj = { kind: type.kind, apiVersion, ...builtinProtobuf().structOrder().order(answer, message) };
  if (posted.protobuf) {
    writeRawBody(res, 201, builtinProtobuf().encode(message, obj), PROTOBUF_BODY_TYPE);
    return;
  }
  writeBody(req, res, 201, JSON.stringify(obj), 'application/json');
}
