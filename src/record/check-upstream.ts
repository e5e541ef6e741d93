/**
 * At start, record asks the upstream for `/version` once: a wrong URL, a cluster that is down or
 * credentials it refuses are named in a warning at once, not at the first client's request. The
 * recorder keeps going whatever the answer (the cluster may come up later).
 */
import http from 'node:http';
import https from 'node:https';
import type { Logger } from '../log/logger';
import type { Upstream } from '../upstream/upstream';

export function checkUpstream(upstream: Upstream, log: Logger, timeoutMs = 5000): Promise<void> {
  const url = new URL(`${upstream.target.pathname.replace(/\/$/, '')}/version`, upstream.target);
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve) => {
    const warn = (problem: string) => {
      log.warn({ upstream: upstream.description }, `the upstream does not answer /version (${problem}); recording anyway`);
      resolve();
    };
    const req = get(url, { agent: upstream.agent, headers: { Accept: 'application/json', ...upstream.authHeaders() }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => warn(err.message));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        // With a bare --upstream the clients bring their credentials: an anonymous 401/403 still shows a live apiserver.
        if (status >= 500 || (status >= 400 && (upstream.replacesCredentials || (status !== 401 && status !== 403)))) {
          warn(`HTTP ${status}`);
          return;
        }
        let version: string | undefined;
        try {
          version = JSON.parse(Buffer.concat(chunks).toString('utf8')).gitVersion;
        } catch {
          version = undefined;
        }
        log.info({ upstream: upstream.description, status, version }, 'upstream answers');
        resolve();
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', (err) => warn(err.message));
  });
}
