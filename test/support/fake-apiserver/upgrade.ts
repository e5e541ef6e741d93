/**
 * exec/attach/portforward upgrades. WebSocket (`v5.channel.k8s.io` … `channel.k8s.io`): a real handshake, then
 * Kubernetes channel framing: `echo ARGS` prints ARGS on stdout (channel 1); with stdin, whatever arrives on channel 0
 * is echoed on channel 1 until the client closes stdin (v5: channel 255); then a Success status on channel 3.
 * SPDY/3.1: the 101 is answered like the kubelet's, then raw bytes are echoed (no SPDY framing: enough for a
 * proxy passthrough test, not for kubectl's SPDY fallback).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];
const SPDY_PROTOCOLS = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];

function wsFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (len >= 126 && len < 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(len, 2);
  } else if (len >= 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  return Buffer.concat([head, payload]);
}

/** Parses complete client frames off `buf`; returns the frames and the unconsumed rest. */
function parseFrames(buf: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let off = 0;
  while (buf.length - off >= 2) {
    const opcode = buf[off] & 0x0f;
    const masked = (buf[off + 1] & 0x80) !== 0;
    let len = buf[off + 1] & 0x7f;
    let p = off + 2;
    if (len === 126) {
      if (buf.length < p + 2) break;
      len = buf.readUInt16BE(p);
      p += 2;
    } else if (len === 127) {
      if (buf.length < p + 8) break;
      len = Number(buf.readBigUInt64BE(p));
      p += 8;
    }
    const maskAt = p;
    if (masked) p += 4;
    if (buf.length < p + len) break;
    const payload = Buffer.from(buf.subarray(p, p + len));
    if (masked) for (let i = 0; i < len; i++) payload[i] ^= buf[maskAt + (i % 4)];
    frames.push({ opcode, payload });
    off = p + len;
  }
  return { frames, rest: buf.subarray(off) };
}

export function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
  const upgrade = String(req.headers.upgrade ?? '').toLowerCase();
  if (upgrade === 'websocket') return websocket(req, socket, head, url);
  if (upgrade.startsWith('spdy/')) return spdy(req, socket, head);
  socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
}

function websocket(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
  const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const protocol = offered.find((p) => PROTOCOLS.includes(p.replace(/^base64\./, '')));
  const key = String(req.headers['sec-websocket-key'] ?? '');
  const accept = createHash('sha1').update(key + WS_GUID).digest('base64');
  socket.write(
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Accept: ${accept}\r\n${protocol ? `Sec-WebSocket-Protocol: ${protocol}\r\n` : ''}\r\n`,
  );
  const send = (channel: number, data: Buffer | string) => socket.write(wsFrame(0x2, Buffer.concat([Buffer.from([channel]), Buffer.from(data)])));
  const finish = () => {
    send(3, '{"metadata":{},"status":"Success"}');
    socket.end(wsFrame(0x8, Buffer.from([0x03, 0xe8])));
  };
  const command = url.searchParams.getAll('command');
  const stdin = /^(1|t|true)$/i.test(url.searchParams.get('stdin') ?? '');
  if (command[0] === 'echo') send(1, `${command.slice(1).join(' ')}\n`);
  if (!stdin) {
    finish();
    return;
  }
  let pending = head;
  const onData = (chunk: Buffer) => {
    const { frames, rest } = parseFrames(Buffer.concat([pending, chunk]));
    pending = rest;
    for (const f of frames) {
      if (f.opcode === 0x8) return finish();
      if (f.opcode === 0x9) socket.write(wsFrame(0xa, f.payload));
      if ((f.opcode === 0x2 || f.opcode === 0x1) && f.payload.length > 0) {
        if (f.payload[0] === 0 && f.payload.length > 1) send(1, f.payload.subarray(1));
        if (f.payload[0] === 255) return finish();
      }
    }
  };
  socket.on('data', onData);
  socket.on('error', () => socket.destroy());
  if (head.length) onData(Buffer.alloc(0));
}

function spdy(req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const raw = req.headers['x-stream-protocol-version'];
  const offered = (Array.isArray(raw) ? raw : [raw ?? '']).flatMap((v) => v.split(',')).map((s) => s.trim());
  const protocol = offered.find((p) => SPDY_PROTOCOLS.includes(p));
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n${protocol ? `X-Stream-Protocol-Version: ${protocol}\r\n` : ''}\r\n`,
  );
  if (head.length) socket.write(head);
  socket.on('data', (chunk) => socket.write(chunk));
  socket.on('error', () => socket.destroy());
}
