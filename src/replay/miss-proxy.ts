import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Logger } from '../log/logger';
import { Passthrough } from '../upstream/passthrough';
import { resolveUpstream } from '../upstream/upstream';
import { RecordingQueue } from '../recording/writer/recording-queue';
import type { MissForwarder } from './miss-forwarder';

export interface MissProxyOptions {
  db: string;
  upstream?: string;
  kubeconfig?: string;
  context?: string;
  log: Logger;
}

/**
 * `--on-miss proxy`: the passthrough and recorder record mode uses (src/upstream), writing into the
 * recording being replayed. The exchanges it records are matched by the next replay of the file.
 */
export async function startMissProxy(options: MissProxyOptions): Promise<MissForwarder> {
  const upstream = await resolveUpstream(options);
  let queue: RecordingQueue;
  try {
    queue = await RecordingQueue.start({
      db: options.db,
      keepSecrets: false,
      log: options.log,
      meta: { tool: 'kubetape', mode: 'replay --on-miss proxy', upstream: upstream.description },
    });
  } catch (err) {
    upstream.close();
    throw err;
  }
  const passthrough = new Passthrough(upstream, queue, options.log);
  return {
    forward(req, res, body) {
      passthrough.web(body.length > 0 ? withBody(req, body) : req, res);
    },
    async close() {
      await passthrough.shutdown(); // open exchanges end as aborted, and record that
      upstream.close();
      await queue.close();
    },
  };
}

/**
 * The request again, readable from the start: replay read the body to match it, and the
 * passthrough both pipes and records the body it reads from the request.
 */
function withBody(req: IncomingMessage, body: Buffer): IncomingMessage {
  const again = Readable.from([body], { objectMode: false }) as unknown as IncomingMessage;
  for (const field of ['method', 'url', 'headers', 'rawHeaders', 'httpVersion', 'httpVersionMajor', 'httpVersionMinor', 'socket', 'connection'] as const) {
    Object.defineProperty(again, field, { value: (req as unknown as Record<string, unknown>)[field], writable: true, configurable: true });
  }
  req.on('error', (err) => again.emit('error', err));
  return again;
}

