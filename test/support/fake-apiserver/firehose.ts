/**
 * The benchmark firehose: a watch of configmaps in a firehose namespace streams `events` ADDED events of about
 * `sizeBytes` each, as fast as the client drains them (waits for 'drain'), then ends the stream. Events are
 * stamped into a pre-encoded template (fixed-width name, uid and resourceVersion), so producing them costs a copy.
 */
import type { Ctx, FirehoseConfig } from './context';
import type { Target } from './negotiate';
import { encodeWatchFrame } from './protobuf';
import { goJson, rfc3339 } from './objects';

const NAME_MARK = 'fh-########';
const CHUNKS_PER_SYSCALL = 128;
const UID_MARK = '00000000-0000-4000-8000-############';

interface Template {
  bytes: Buffer;
  nameAt: number[];
  uidAt: number[];
  rvAt: number[];
}

function find(buf: Buffer, mark: string): number[] {
  const out: number[] = [];
  for (let at = buf.indexOf(mark); at >= 0; at = buf.indexOf(mark, at + 1)) out.push(at);
  return out;
}

function template(target: Target, namespace: string, rvMark: string, sizeBytes: number, created: string): Template {
  const object = (blob: string) => ({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: NAME_MARK, namespace, uid: UID_MARK, resourceVersion: rvMark, creationTimestamp: created },
    data: { blob },
  });
  const encode = (blob: string) =>
    target.kind === 'protobuf' ? encodeWatchFrame('ADDED', 'v1', 'ConfigMap', object(blob)) : Buffer.from(`${goJson({ type: 'ADDED', object: object(blob) })}\n`);
  const bare = encode('').length;
  const bytes = encode('x'.repeat(Math.max(0, sizeBytes - bare)));
  return { bytes, nameAt: find(bytes, NAME_MARK), uidAt: find(bytes, UID_MARK), rvAt: find(bytes, rvMark) };
}

/** Writes `value` as `width` zero-padded decimal digits ending just before `end` at every offset in `at`. */
function stampDigits(buf: Buffer, base: number, at: number[], end: number, value: number): void {
  for (let k = 0; k < at.length; k++) {
    let v = value;
    for (let p = base + at[k] + end - 1; p >= base + at[k]; p--) {
      buf[p] = 48 + (v % 10);
      v = Math.floor(v / 10);
    }
  }
}

export function streamFirehose(ctx: Ctx, target: Target, config: FirehoseConfig): Promise<void> {
  const { res, store } = ctx;
  const namespace = ctx.url.pathname.split('/')[4];
  const n = config.events;
  const firstRv = store.reserve(n);
  const width = String(firstRv + n - 1).length;
  const rvMark = 'R'.repeat(width);
  const t = template(target, namespace, rvMark, config.sizeBytes, rfc3339(ctx.settings.now()));
  const size = t.bytes.length;
  const perWrite = Math.max(1, config.eventsPerWrite);
  let i = 0;
  let stopped = false;
  res.on('close', () => (stopped = true));

  // Each group of `perWrite` events is one HTTP chunk, framed here so that many chunks go out in one socket write
  // (node's res.write costs a syscall per chunk, which caps a watch far below what a proxy benchmark needs).
  // Name, uid and RV are stamped as fixed-width digits into a copy of the template.
  const stampEvent = (buf: Buffer, base: number) => {
    t.bytes.copy(buf, base);
    stampDigits(buf, base + 3, t.nameAt, 8, i + 1);
    stampDigits(buf, base + 24, t.uidAt, 12, i + 1);
    stampDigits(buf, base, t.rvAt, width, firstRv + i);
    i++;
  };
  const batch = (): Buffer => {
    const chunks = Math.min(CHUNKS_PER_SYSCALL, Math.ceil((n - i) / perWrite));
    const heads = [Buffer.from(`${(size * perWrite).toString(16)}\r\n`), Buffer.from(`${(size * ((n - i) % perWrite || perWrite)).toString(16)}\r\n`)];
    const out = Buffer.allocUnsafe(chunks * (heads[0].length + size * perWrite + 2));
    let at = 0;
    for (let c = 0; c < chunks; c++) {
      const count = Math.min(perWrite, n - i);
      const head = count === perWrite ? heads[0] : heads[1];
      at += head.copy(out, at);
      for (let k = 0; k < count; k++, at += size) stampEvent(out, at);
      out[at++] = 13;
      out[at++] = 10;
    }
    return out.subarray(0, at);
  };

  const socket = res.socket!;
  return new Promise((resolve) => {
    const pump = () => {
      while (!stopped && i < n) {
        if (!socket.write(batch())) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!stopped && !res.writableEnded) {
        socket.write('0\r\n\r\n');
        (res as unknown as { chunkedEncoding: boolean }).chunkedEncoding = false; // the terminator is written above
        res.end();
      }
      resolve();
    };
    res.on('close', () => resolve());
    pump();
  });
}
