/**
 * Decoding for indexing: what the recorder writes into the object log. Bodies must already be
 * gunzipped (see gzip.ts); watch frames come from a framer (watch-framer.ts).
 */
import { decodeJsonBody, decodeJsonWatchFrame } from './decode-json';
import { decodeProtobufBody, decodeProtobufWatchFrame } from './decode-protobuf';
import type { DecodedBody, DecodedWatchEvent } from './decoded-types';
import { skipWs } from './json-spans';
import { isJson, isProtobuf, parseMediaType } from './media-types';
import { hasMagic } from './protobuf';
import { WireError } from './wire-error';

export type { DecodedBody, DecodedList, DecodedObject, DecodedWatchEvent, Encoding, ObjectForm } from './decoded-types';

/**
 * Decodes a response (or request) body. Protobuf without the k8s\0 magic, malformed JSON or
 * protobuf → WireError. Content types that are neither JSON nor protobuf → `{type:'other'}`;
 * with no content type at all, the magic or a leading '{' decide.
 */
export function decodeBody(contentType: string | undefined, body: Buffer): DecodedBody {
  if (body.length === 0) return { type: 'other', reason: 'empty body' };
  if (isProtobuf(contentType)) return decodeProtobufBody(body);
  if (isJson(contentType)) return decodeJsonBody(body);
  if (!contentType || !parseMediaType(contentType).type) {
    if (hasMagic(body)) return decodeProtobufBody(body);
    if (body[skipWs(body, 0, body.length)] === 0x7b) return decodeJsonBody(body);
    return { type: 'other', reason: 'no content type and not recognisable as JSON or protobuf' };
  }
  return { type: 'other', reason: `content type ${contentType}` };
}

/**
 * Decodes one watch frame as the framer returned it: for protobuf (`…protobuf;stream=watch`)
 * the 4-byte length prefix included, for JSON the line including its '\n'.
 */
export function decodeWatchFrame(contentType: string | undefined, frame: Buffer): DecodedWatchEvent {
  const encoding = watchEncoding(contentType);
  if (encoding === 'protobuf') return decodeProtobufWatchFrame(frame);
  if (encoding === 'json') return decodeJsonWatchFrame(frame);
  throw new WireError(`no watch decoding for content type ${contentType}`);
}

/** A stream's frames all share one content type: remember the last answer instead of re-parsing it per frame. */
let lastWatchType: { contentType: string | undefined; encoding: 'json' | 'protobuf' | undefined } | undefined;

function watchEncoding(contentType: string | undefined): 'json' | 'protobuf' | undefined {
  if (lastWatchType && lastWatchType.contentType === contentType) return lastWatchType.encoding;
  const encoding = isProtobuf(contentType) ? 'protobuf' : isJson(contentType) || !contentType ? 'json' : undefined;
  lastWatchType = { contentType, encoding };
  return encoding;
}
