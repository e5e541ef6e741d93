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

function stamp(buf: Buffer, base: number, at: number[], offsetInMark: number, digits: string): void {
  for (let k = 0; k < at.length; k++) buf.write(digits, base + at[k] + offsetInMark, 'latin1');
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

  const build = (count: number): Buffer => {
    const batch = Buffer.allocUnsafe(size * count);
    for (let k = 0; k < count; k++, i++) {
      const base = k * size;
      t.bytes.copy(batch, base);
      const index = String(i + 1).padStart(8, '0');
      stamp(batch, base, t.nameAt, 3, index);
      stamp(batch, base, t.uidAt, 24, String(i + 1).padStart(12, '0'));
      stamp(batch, base, t.rvAt, 0, String(firstRv + i));
    }
    return batch;
  };

  return new Promise((resolve) => {
    // Each write stays its own HTTP chunk; corking only batches the chunks into fewer syscalls.
    const pump = () => {
      while (!stopped && i < n) {
        res.cork();
        let ok = true;
        for (let k = 0; k < CHUNKS_PER_SYSCALL && ok && i < n; k++) ok = res.write(build(Math.min(perWrite, n - i)));
        res.uncork();
        if (!ok) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.writableEnded) res.end();
      resolve();
    };
    res.on('close', () => resolve());
    pump();
  });
}
