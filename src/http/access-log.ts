/**
 * The access log the three modes share: one line per request once its response has ended
 * (a watch when it closes), at `info` — method, path (with query), status, the resourceVersion
 * of the answer where the mode knows it, duration, user agent, and the fault rules that acted.
 * Handlers add what only they know with noteAccess(req, …).
 */
import type { RequestListener } from 'node:http';
import type { Logger } from '../log/logger';

export interface AccessNote {
  /** The resourceVersion the answer was read at (a list's, an object's, a watch's start). */
  resourceVersion?: string;
  /** A fault rule that acted on the request (several are joined with `,`). */
  fault?: string;
}

const notes = new WeakMap<object, AccessNote>();

/** Adds to what the access log line of `req` will say. */
export function noteAccess(req: object, note: AccessNote): void {
  const current = notes.get(req);
  if (!current) {
    notes.set(req, { ...note });
    return;
  }
  if (note.resourceVersion !== undefined) current.resourceVersion = note.resourceVersion;
  if (note.fault !== undefined) current.fault = current.fault ? `${current.fault},${note.fault}` : note.fault;
}

/** `listener`, with one log line per request; `listener` itself when `info` is off. */
export function withAccessLog(listener: RequestListener, log: Logger): RequestListener {
  if (!log.isLevelEnabled('info')) return listener;
  return (req, res) => {
    const started = performance.now();
    res.once('close', () => {
      const note = notes.get(req);
      log.info(
        {
          method: req.method,
          path: req.url,
          status: res.headersSent ? res.statusCode : 0,
          resourceVersion: note?.resourceVersion,
          ms: Math.round((performance.now() - started) * 10) / 10,
          userAgent: req.headers['user-agent'],
          fault: note?.fault,
        },
        'request',
      );
    });
    listener(req, res);
  };
}
