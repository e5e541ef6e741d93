/**
 * `/openapi/v2` as protobuf (gnostic's `openapi.v2.Document`), encoded from the JSON document
 * served at the same time, once per distinct document: the entries are keyed by the JSON's hash
 * (its ETag), and the two most recently used are kept (the built-in document and the one with the
 * current CRDs, so installing and removing CRDs does not re-encode the built-in one).
 */
import { gzipSync } from 'node:zlib';
import { encodeOpenApiV2 } from '../../wire/openapi-v2-encode';

export interface OpenApiV2ProtobufDocument {
  body: Buffer;
  /** The body gzip-encoded (made on first use). */
  gzip(): Buffer;
}

const KEPT = 2;

export class OpenApiV2Protobuf {
  private readonly entries = new Map<string, OpenApiV2ProtobufDocument>();

  /** The protobuf form of the JSON document whose hash is `hash` (`json` is read only when it is not cached). */
  document(hash: string, json: () => Buffer): OpenApiV2ProtobufDocument {
    let doc = this.entries.get(hash);
    if (doc) {
      this.entries.delete(hash);
    } else {
      const body = encodeOpenApiV2(JSON.parse(json().toString('utf8')) as Record<string, unknown>);
      let gz: Buffer | undefined;
      doc = { body, gzip: () => (gz ??= gzipSync(body)) };
    }
    this.entries.set(hash, doc);
    for (const key of this.entries.keys()) if (this.entries.size > KEPT) this.entries.delete(key);
    return doc;
  }
}
