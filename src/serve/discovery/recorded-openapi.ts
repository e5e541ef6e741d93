/**
 * Recorded `/openapi/v2` and `/openapi/v3…` answers, chosen by Accept as kube-openapi's handler
 * negotiates: each recorded answer is JSON or protobuf by its type (a v1.26 apiserver sends both
 * with sniffed types, `text/plain; charset=utf-8` and `application/octet-stream`; newer ones
 * `application/json` and `application/com.github.proto-openapi.spec.v2.v1.0+protobuf`), and the
 * first Accept clause (goautoneg order) one of them fits picks it; `*` takes the JSON one if there
 * is one. A `/openapi/v2` protobuf request when only the JSON was recorded gets that JSON encoded
 * (openapi-v2-protobuf.ts). The recorded ETag, Last-Modified, Cache-Control, Expires and Vary
 * lines go back with the body (each line as recorded, in order: a v2 answer has two Vary lines),
 * and an `If-None-Match` that matches the ETag as http.ServeContent compares gets a 304.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseMediaType } from '../../wire/media-types';
import { parseAccept } from '../negotiate';
import { acceptsGzip, writeRawBody } from '../response-body';
import { isOpenApiJsonClause, isOpenApiProtobufClause } from './accept-clauses';
import type { OpenApiV2Protobuf } from './openapi-v2-protobuf';
import { ifNoneMatchHits, sendNotModified } from './openapi-preconditions';
import type { RecordedAnswer } from './recorded-discovery';

const PASSED_THROUGH_HEADERS = ['etag', 'last-modified', 'cache-control', 'expires', 'vary'];

export interface PickedOpenApiAnswer {
  answer: RecordedAnswer;
  /** Whether the answer is a v2 JSON document to be sent as protobuf. */
  encodeV2: boolean;
}

/** The recorded answer for `path` the Accept header asks for (the JSON for the `/openapi/v3` index whatever it asks for), or undefined (406). */
export function pickOpenApiAnswer(path: string, answers: readonly RecordedAnswer[], accept: string | undefined): PickedOpenApiAnswer | undefined {
  const json = answers.find((a) => formOf(a) === 'json');
  const protobuf = answers.find((a) => formOf(a) === 'protobuf');
  const version = path.startsWith('/openapi/v2') ? 'v2' : 'v3';
  for (const clause of parseAccept(accept || '*/*')) {
    const wildcard = clause.subType === '*' && (clause.type === '*' || clause.type === 'application');
    if (isOpenApiJsonClause(clause) && json) return { answer: json, encodeV2: false };
    const asked = (protobuf && (wildcard || sameType(clause, protobuf))) || isOpenApiProtobufClause(clause, version, true);
    if (asked && protobuf) return { answer: protobuf, encodeV2: false };
    if (asked && json && path === '/openapi/v2') return { answer: json, encodeV2: true };
  }
  // The v3 index handler (HandleDiscovery) does not look at Accept.
  if (path === '/openapi/v3' && json) return { answer: json, encodeV2: false };
  return undefined;
}

/** Sends a picked answer: its body as recorded, or (`encodeV2`) as protobuf, gzip-encoded for a gzip client. */
export function sendRecordedOpenApi(req: IncomingMessage, res: ServerResponse, picked: PickedOpenApiAnswer, protobufV2: OpenApiV2Protobuf): void {
  const { answer } = picked;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of answer.headers) {
    if (!PASSED_THROUGH_HEADERS.includes(name.toLowerCase())) continue;
    const key = canonical(name);
    const before = headers[key];
    headers[key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  const etag = typeof headers.Etag === 'string' ? headers.Etag : undefined;
  const inm = req.headers['if-none-match'];
  if (ifNoneMatchHits(Array.isArray(inm) ? inm.join(', ') : inm, etag)) return sendNotModified(res, headers);
  if (!picked.encodeV2) return writeRawBody(res, 200, answer.body, answer.contentType || 'application/json', headers);
  const key = etag ?? createHash('sha512').update(answer.body).digest('hex');
  const doc = protobufV2.document(key, () => answer.body);
  const gzip = acceptsGzip(req);
  writeRawBody(res, 200, gzip ? doc.gzip() : doc.body, 'application/octet-stream', { ...headers, ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
}

function formOf(answer: RecordedAnswer): 'json' | 'protobuf' {
  const mt = parseMediaType(answer.contentType);
  if ((mt.type === 'application' && mt.subtype === 'json') || (mt.type === 'text' && mt.subtype === 'plain')) return 'json';
  if (mt.subtype.endsWith('+protobuf') || mt.subtype === 'octet-stream') return 'protobuf';
  return answer.body[0] === 0x7b ? 'json' : 'protobuf';
}

function sameType(clause: { type: string; subType: string }, answer: RecordedAnswer): boolean {
  const mt = parseMediaType(answer.contentType);
  return clause.type === mt.type && clause.subType === mt.subtype;
}

function canonical(name: string): string {
  return name.toLowerCase() === 'etag' ? 'Etag' : name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}
