/** Recorded responses that may be discovery documents: for serve to answer discovery as the recorded apiserver did. */
import type { Db } from '../open';

/** A whole recorded response: headers as JSON `[[name, value], ...]`, the body as on the wire (gzip if it was). */
export interface DiscoveryResponseRow {
  url: string;
  headers: string | null;
  body: Buffer;
}

/**
 * Successful, whole (not streamed) GETs of discovery, /version and /openapi/… paths, in recorded
 * order.
 */
export function discoveryResponses(db: Db): DiscoveryResponseRow[] {
  return db
    .prepare(
      `SELECT url, response_headers AS headers, response_body AS body FROM exchanges
       WHERE method = 'GET' AND status = 200 AND streamed = 0 AND response_body IS NOT NULL
         AND (verb = 'discovery' OR url LIKE '/version%' OR url LIKE '/openapi/%')
       ORDER BY id`,
    )
    .all() as DiscoveryResponseRow[];
}
