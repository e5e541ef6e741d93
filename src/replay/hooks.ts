import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request being handled, as hooks see it. */
export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The whole request body, already read. */
  body: Buffer;
  /** Adds fields to this request's journal entry, e.g. `{ fault: 'break-watch' }`. */
  note(fields: Record<string, unknown>): void;
}

/** A recorded frame about to be written to a streamed response: for a watch, one event. */
export interface FrameContext extends RequestContext {
  exchangeId: number;
  /** The response's Content-Type (`application/json`, `application/vnd.kubernetes.protobuf;stream=watch` …). */
  contentType: string;
  /** 0-based index of this frame (of this event, in a watch) in the stream. */
  index: number;
  /** ms since the response head was sent. */
  elapsedMs: number;
  data: Buffer;
}

/**
 * What to do with a frame: wait `delayMs` first; write `data` instead of the recorded frame
 * (null: write nothing); then `end` the stream cleanly (`close`) or by destroying the connection
 * (`reset`) instead of going on. Returning undefined writes the frame as recorded.
 */
export interface FrameDecision {
  delayMs?: number;
  data?: Buffer | null;
  end?: 'close' | 'reset';
}

/** Extension points for fault injection (src/faults): the top of request handling and every streamed frame. */
export interface ReplayHooks {
  /** Called first for every API request (not admin or health); return true when the hook answered it. */
  onRequest?(ctx: RequestContext): boolean | Promise<boolean>;
  /** Called before each frame of a streamed response is written. */
  onFrame?(ctx: FrameContext): FrameDecision | undefined | Promise<FrameDecision | undefined>;
}
