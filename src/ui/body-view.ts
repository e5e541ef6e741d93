/**
 * A recorded body as a person reads it: gzip undone, JSON pretty-printed, protobuf shown as what
 * it decodes to (every field of a built-in kind, list meta, Status), anything else as text or a byte count.
 */
import { gunzipSafe, hasMagic, isGzip, isJson, isProtobuf } from '../wire';
import { decodeBody } from '../wire';
import type { DecodedObject } from '../wire';
import { protobufObject } from './protobuf-object-view';

/** Bodies are shown up to this many characters (the rest is counted, not sent). */
export const BODY_TEXT_LIMIT = 256 * 1024;

export interface BodyView {
  contentType: string | null;
  /** Bytes as recorded, and after gzip was undone. */
  bytes: number;
  gzip: boolean;
  kind: 'empty' | 'json' | 'protobuf' | 'text' | 'binary';
  /** What is shown: pretty JSON, text, or the protobuf's decoded metadata as pretty JSON. */
  text: string;
  truncated: boolean;
}

export type Headers = Array<[string, string]>;

export function header(headers: Headers, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([k]) => k.toLowerCase() === lower)?.[1];
}

export function bodyView(headers: Headers, body: Buffer | null): BodyView {
  const contentType = header(headers, 'content-type') ?? null;
  const gzip = isGzip(header(headers, 'content-encoding'));
  if (!body || body.length === 0) return { contentType, bytes: 0, gzip, kind: 'empty', text: '', truncated: false };
  let bytes = body;
  if (gzip) {
    const out = gunzipSafe(body, { allowTruncated: true });
    if (out instanceof Error) return limited({ contentType, bytes: body.length, gzip, kind: 'text', text: `(gzip could not be undone: ${out.message})`, truncated: false });
    bytes = out;
  }
  const base = { contentType, bytes: bytes.length, gzip };
  if (isProtobuf(contentType ?? undefined) || hasMagic(bytes)) return limited({ ...base, kind: 'protobuf', text: pretty(protobufSummary(contentType, bytes)), truncated: false });
  const text = bytes.toString('utf8');
  if (isJson(contentType ?? undefined) || /^\s*[{[]/.test(text)) {
    try {
      return limited({ ...base, kind: 'json', text: pretty(JSON.parse(text)), truncated: false });
    } catch {
      return limited({ ...base, kind: 'text', text, truncated: false });
    }
  }
  if (/[\x00-\x08\x0e-\x1f]/.test(text.slice(0, 4096))) return { ...base, kind: 'binary', text: `(${bytes.length} bytes of binary data)`, truncated: false };
  return limited({ ...base, kind: 'text', text, truncated: false });
}

/** What a protobuf body decodes to: an object, a list's meta and its items, a Status. */
export function protobufSummary(contentType: string | null, bytes: Buffer): unknown {
  try {
    const decoded = decodeBody(contentType ?? undefined, bytes);
    if (decoded.type === 'status') return decoded.status;
    if (decoded.type === 'object') return objectSummary(decoded.object);
    if (decoded.type === 'list') {
      return {
        apiVersion: decoded.apiVersion,
        kind: decoded.kind,
        metadata: { resourceVersion: decoded.resourceVersion, continue: decoded.continue || undefined, remainingItemCount: decoded.remainingItemCount },
        items: decoded.items.map(objectSummary),
      };
    }
    return { protobuf: `${bytes.length} bytes`, note: decoded.reason };
  } catch (err) {
    return { protobuf: `${bytes.length} bytes`, error: (err as Error).message };
  }
}

/** A decoded object as shown: JSON as parsed, protobuf decoded field by field, a Table row as its JSON. */
export function objectSummary(o: DecodedObject): unknown {
  if (o.encoding === 'json') return JSON.parse(o.raw.toString('utf8'));
  return protobufObject(o.raw);
}

export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function limited(view: BodyView): BodyView {
  if (view.text.length <= BODY_TEXT_LIMIT) return view;
  return { ...view, text: view.text.slice(0, BODY_TEXT_LIMIT), truncated: true };
}
