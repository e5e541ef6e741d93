/** `GET .../pods/NAME/log`: a few lines, or with `follow=true` a chunked text stream (a line every `logIntervalMs`). */
import type { Ctx, ResourceRequest } from './context';
import { parseBool } from './list';
import { sendBytes, startStream } from './respond';
import { notFound } from './status';

const line = (pod: string, n: number) => `${pod} log line ${n}\n`;

export async function serveLog(ctx: Ctx, r: ResourceRequest): Promise<void> {
  const pod = ctx.store.current('pods', r.namespace ?? '', r.name ?? '');
  if (!pod) throw notFound('pods', '', r.name ?? '');
  const tail = Number(ctx.query.get('tailLines') ?? 3);
  const initial = Array.from({ length: Math.max(0, Math.min(tail, 3)) }, (_, i) => line(r.name!, i + 1)).join('');
  if (!parseBool(ctx.query.get('follow'))) {
    sendBytes(ctx.req, ctx.res, 200, Buffer.from(initial), 'text/plain');
    return;
  }
  const { res } = ctx;
  startStream(res, 'text/plain');
  if (initial) res.write(initial);
  let n = 3;
  const timer = setInterval(() => res.write(line(r.name!, ++n)), ctx.settings.logIntervalMs);
  res.on('close', () => clearInterval(timer));
}
