import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * `--on-miss proxy`: passes a request no recorded exchange matched to the upstream and records
 * the exchange into the recording being replayed.
 */
export interface MissForwarder {
  /** Forwards the request (whose body was already read for matching) and answers the client. */
  forward(req: IncomingMessage, res: ServerResponse, body: Buffer): void;
  close(): Promise<void>;
}
