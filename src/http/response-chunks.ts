/**
 * Body chunks of a chunked response written straight to its socket: `<hex length>\r\n<data>\r\n`
 * as one buffer and one socket write, where node's `res.write` makes four (length, CRLF, data,
 * CRLF) through the socket's stream. A frame made by `inChunk` already sits inside its chunk,
 * so one encoding goes to any number of responses without another copy.
 */
import { OutgoingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const CRLF = 0x0d0a;
/** Frame → the chunk it sits in (made by inChunk, or on first use by chunkOf). */
const chunks = new WeakMap<Buffer, Buffer>();
const nodeWrite = OutgoingMessage.prototype.write;

/** A copy of `data` laid out inside its chunk: writing it with chunkOf copies nothing more. */
export function inChunk(data: Buffer): Buffer {
  const [chunk, start] = chunkWith(data);
  const view = chunk.subarray(start, start + data.length);
  chunks.set(view, chunk);
  return view;
}

/** `data` as one chunk of a chunked body (`data` must not be empty: an empty chunk ends the body). */
export function chunkOf(data: Buffer): Buffer {
  return chunks.get(data) ?? chunkWith(data)[0];
}

/** `<hex length>\r\n<data>\r\n`, and where the data starts in it. */
function chunkWith(data: Buffer): [Buffer, number] {
  const head = `${data.length.toString(16)}\r\n`;
  const chunk = Buffer.allocUnsafe(head.length + data.length + 2);
  chunk.write(head, 0, 'latin1');
  data.copy(chunk, head.length);
  chunk.writeUInt16BE(CRLF, chunk.length - 2);
  return [chunk, head.length];
}

/**
 * The socket a response's body chunks may be written to directly, or undefined when they must
 * go through `res.write`: the head not yet on the socket (no socket yet: a pipelined request
 * waiting for the one before it), a body that is not chunked (an HTTP/1.0 client), a HEAD
 * request, a finished response, or a `res.write` replaced by something that watches the body.
 */
export function chunkSocket(res: ServerResponse): Socket | undefined {
  const socket = res.socket;
  if (!socket || !res.headersSent || !res.chunkedEncoding || res.writableEnded || res.write !== nodeWrite) return undefined;
  if (res.req.method === 'HEAD' || socket.destroyed || !socket.writable) return undefined;
  return socket;
}
