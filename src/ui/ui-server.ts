/**
 * `kubetape ui`: the page and its JSON API over one recording, on a loopback address only. The
 * server lifecycle of the API-server modes (http/mode-server.ts) writes kubeconfigs and mounts
 * faults, which a page has no use for; this one shares its Host check and request guard.
 */
import { createServer } from 'node:http';
import { UsageError } from '../errors/usage-error';
import { HostCheck } from '../http/host-check';
import { closeServer, listen, parseListen } from '../http/listen';
import { guardHandlers } from '../http/request-guard';
import { silentLogger, type Logger } from '../log/logger';
import { openRecording } from '../recording/open';
import { readPageAssets, servedPage } from './page-assets';
import { RecordingViews } from './recording-views';
import { answerApi } from './ui-api';
import { basename } from 'node:path';

import { DEFAULT_UI_LISTEN } from './ui-listen';

export { DEFAULT_UI_LISTEN };

export interface UiOptions {
  db: string;
  /** `HOST:PORT` on a loopback address (default 127.0.0.1:8002; port 0 picks a free one). */
  listen?: string;
  logger?: Logger;
  /** What `/api/summary` answers (the CLI passes `inspect`'s summary). */
  summary(path: string): unknown;
}

export interface UiServer {
  url: string;
  close(): Promise<void>;
}

export async function startUi(options: UiOptions): Promise<UiServer> {
  const log = (options.logger ?? silentLogger()).child({ component: 'ui' });
  const address = parseListen(options.listen ?? DEFAULT_UI_LISTEN);
  if (!isLoopback(address.host)) throw new UsageError(`--listen: the UI listens on a loopback address only (127.0.0.1, ::1, localhost), got ${address.host}`);
  const assets = readPageAssets();
  const db = openRecording(options.db, { readonly: true });
  const views = new RecordingViews(db, () => options.summary(options.db));
  const page = servedPage(basename(options.db));
  const handlers = guardHandlers(
    {
      request(req, res) {
        const path = new URL(req.url ?? '/', 'http://ui').pathname;
        if (answerApi(views, req, res)) return;
        const asset = path === '/' ? ['text/html; charset=utf-8', page] : path === '/page.js' ? ['text/javascript', assets.js] : path === '/page.css' ? ['text/css', assets.css] : undefined;
        if (!asset || req.method !== 'GET') {
          res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
          return;
        }
        res.writeHead(200, { 'Content-Type': asset[0]!, 'Cache-Control': 'no-cache', 'Content-Length': Buffer.byteLength(asset[1]!) }).end(asset[1]);
      },
    },
    new HostCheck(address.host),
    log,
  );
  const server = createServer(handlers.request);
  let url: string;
  try {
    url = await listen(server, address);
  } catch (err) {
    db.close();
    throw err;
  }
  log.info({ url, db: options.db }, 'ui listening');
  let closing: Promise<void> | undefined;
  return {
    url,
    close: () =>
      (closing ??= closeServer(server).then(() => {
        db.close();
      })),
  };
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
