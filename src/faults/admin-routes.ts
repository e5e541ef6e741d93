/**
 * `/_kubetape/faults` (loopback only, like all of the admin API):
 *   GET    faults          the rules, in order, with explain() and hit counts
 *   POST   faults          add one rule, a list, or { faults: [...] } (bad → 400 naming the field)
 *   DELETE faults/NAME     remove one rule (404 if there is none)
 *   DELETE faults          remove them all
 *   GET    faults/journal  the faults applied so far
 */
import type { IncomingMessage } from 'node:http';
import type { AdminApi } from '../http/admin';
import { badRequest, failure, StatusError } from '../k8s/status';
import { FaultConfigError } from './fields';

/** The rule set the routes administer (the FaultInjector). */
export interface AdministeredFaults {
  readonly mode: string;
  list(): unknown[];
  add(raw: unknown): unknown[];
  remove(name: string): boolean;
  clear(): number;
  journal(): unknown[];
}

export function mountFaultsAdmin(admin: AdminApi, faults: AdministeredFaults): void {
  admin
    .add('GET', 'faults', () => ({ mode: faults.mode, faults: faults.list() }))
    .add('POST', 'faults', (body) => {
      try {
        return { added: faults.add(body) };
      } catch (err) {
        if (err instanceof FaultConfigError) throw badRequest(err.message);
        throw err;
      }
    })
    .add('DELETE', 'faults', () => ({ removed: faults.clear() }))
    .add('DELETE', 'faults/*', (_body, req) => {
      const name = subPath(req);
      if (!faults.remove(name)) throw new StatusError(failure(404, 'NotFound', `no fault rule named "${name}"`));
      return { removed: 1, name };
    })
    .add('GET', 'faults/journal', () => ({ journal: faults.journal() }));
}

/** `NAME` from `/_kubetape/faults/NAME`. */
function subPath(req: IncomingMessage): string {
  const path = (req.url ?? '').split('?')[0]!;
  const rest = path.slice(path.indexOf('/faults/') + '/faults/'.length);
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}
