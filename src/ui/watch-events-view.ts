/** A recorded watch's events, one row each with its arrival offset, decoded from the stream's frames. */
import { decodeWatchFrame, isProtobuf, splitFrames, type DecodedWatchEvent } from '../wire';
import { objectSummary, pretty } from './body-view';

/** Each event's object is shown up to this many characters. */
const EVENT_TEXT_LIMIT = 16 * 1024;

export interface WatchEventRow {
  /** The frame (one arrival) the event came in. */
  seq: number;
  offsetMs: number;
  type: string;
  namespace: string;
  name: string;
  rv: string;
  /** The object, or the ERROR event's Status, as pretty JSON (cut at EVENT_TEXT_LIMIT). */
  text: string;
}

/** The events of recorded frames `[seq, offsetMs, data]` of a stream with this content type. */
export function watchEventRows(contentType: string | undefined, frames: Array<[number, number, Buffer]>): WatchEventRow[] {
  const protobuf = isProtobuf(contentType);
  const rows: WatchEventRow[] = [];
  for (const [seq, offsetMs, data] of frames) {
    for (const frame of splitFrames(data, protobuf)) rows.push({ seq, offsetMs, ...eventOf(contentType, frame) });
  }
  return rows;
}

function eventOf(contentType: string | undefined, frame: Buffer): Omit<WatchEventRow, 'seq' | 'offsetMs'> {
  let event: DecodedWatchEvent;
  try {
    event = decodeWatchFrame(contentType, frame);
  } catch (err) {
    return { type: '(undecodable)', namespace: '', name: '', rv: '', text: `${(err as Error).message} (${frame.length} bytes)` };
  }
  const o = event.object;
  const shown = event.status ?? (o ? safe(() => objectSummary(o)) : undefined);
  const text = shown === undefined ? '' : pretty(shown);
  return {
    type: event.type,
    namespace: o?.namespace ?? '',
    name: o?.name ?? '',
    rv: o?.resourceVersion ?? '',
    text: text.length > EVENT_TEXT_LIMIT ? `${text.slice(0, EVENT_TEXT_LIMIT)}\n… (${text.length} characters)` : text,
  };
}

function safe(f: () => unknown): unknown {
  try {
    return f();
  } catch (err) {
    return { error: (err as Error).message };
  }
}
