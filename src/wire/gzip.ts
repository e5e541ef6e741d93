/**
 * gzip as the apiserver uses it: with `Accept-Encoding: gzip`, bodies of at least 128 KiB come
 * `Content-Encoding: gzip` (JSON and protobuf; watch streams never). The recorder keeps the wire
 * bytes and gunzips a copy for indexing.
 */
import * as zlib from 'node:zlib';

/** The apiserver compresses responses of at least this many bytes when the client accepts gzip. */
export const GZIP_MIN_BYTES = 128 * 1024;

type HeaderValue = string | string[] | number | undefined | null;

/**
 * Whether the body is gzip-encoded: pass the Content-Encoding value, or a headers object
 * (Node's IncomingHttpHeaders or any record; names matched case-insensitively).
 */
export function isGzip(headersOrEncoding: HeaderValue | Record<string, HeaderValue>): boolean {
  const value = contentEncodingOf(headersOrEncoding);
  if (value === undefined) return false;
  const codings = value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  return codings.length === 1 && (codings[0] === 'gzip' || codings[0] === 'x-gzip');
}

function contentEncodingOf(h: HeaderValue | Record<string, HeaderValue>): string | undefined {
  if (h === undefined || h === null) return undefined;
  if (typeof h === 'string') return h;
  if (typeof h === 'number') return undefined;
  if (Array.isArray(h)) return h.join(',');
  for (const [name, value] of Object.entries(h)) {
    if (name.toLowerCase() === 'content-encoding') return contentEncodingOf(value as HeaderValue);
  }
  return undefined;
}

export interface GunzipOptions {
  /** Decode what a truncated stream holds instead of failing (a recording cut off mid-body). */
  allowTruncated?: boolean;
  /** Refuse to inflate beyond this many bytes (default 1 GiB). */
  maxOutputBytes?: number;
}

/** Gunzips `buf`; returns the Error instead of throwing (corrupt data, too large). */
export function gunzipSafe(buf: Buffer, options: GunzipOptions = {}): Buffer | Error {
  try {
    return zlib.gunzipSync(buf, {
      finishFlush: options.allowTruncated ? zlib.constants.Z_SYNC_FLUSH : zlib.constants.Z_FINISH,
      maxOutputLength: options.maxOutputBytes ?? 1024 * 1024 * 1024,
    });
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}
