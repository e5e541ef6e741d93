/**
 * What kube-openapi's handlers (v1.26: k8s.io/kube-openapi 172d655) answer besides a document:
 * the 304 of http.ServeContent for an `If-None-Match` that matches the answer's ETag, and the
 * empty 406 (`w.WriteHeader(406)`) when no Accept clause fits. `/openapi/v2` goes through
 * gziphandler, which adds `Vary: Accept-Encoding` before the handler's `Vary: Accept`; a v3
 * group-version answer has `Vary: Accept` only.
 */
import type { ServerResponse } from 'node:http';
import { writeEmptyBody } from '../response-body';

/** The Vary lines kube-openapi sends on every `path` answer (200, 304 and 406). */
export function openApiVary(path: string): string | string[] {
  return path === '/openapi/v2' ? ['Accept-Encoding', 'Accept'] : 'Accept';
}

/**
 * http.ServeContent's checkIfNoneMatch: whether `ifNoneMatch` (a comma-separated list of entity
 * tags, weak `W/"…"` ones included, or `*`) matches `etag` by the weak comparison, so the answer is
 * a 304. A malformed tag ends the list.
 */
export function ifNoneMatchHits(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || etag === undefined) return false;
  let rest = ifNoneMatch;
  for (;;) {
    rest = rest.replace(/^[ \t\r\n]+/, '');
    if (rest === '') return false;
    if (rest[0] === ',') {
      rest = rest.slice(1);
      continue;
    }
    if (rest[0] === '*') return true;
    const tag = /^(W\/)?"[\x21\x23-\x7e\x80-\uffff]*"/.exec(rest)?.[0];
    if (tag === undefined) return false;
    if (strong(tag) === strong(etag)) return true;
    rest = rest.slice(tag.length);
  }
}

function strong(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** writeNotModified: the answer's headers without Content-Type, Content-Length, Content-Encoding (and Last-Modified beside an Etag). */
export function sendNotModified(res: ServerResponse, headers: Record<string, string | string[]>): void {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(content-type|content-length|content-encoding|last-modified)$/i.test(name)));
  writeEmptyBody(res, 304, kept);
}

/** kube-openapi's 406: no body, no Content-Type, the Vary lines. */
export function sendOpenApiNotAcceptable(res: ServerResponse, path: string): void {
  writeEmptyBody(res, 406, { Vary: openApiVary(path) });
}
