import { get } from '../support/http-client';

/** One cause of a 422 as details.causes lists it: [reason, message, field]. */
export type Cause = [reason: string, message: string, field: string];

type Obj = Record<string, any>;

/**
 * The 422 Status the apiserver answers for an invalid object, keys in its order:
 * `Kind[.group] "name" is invalid: …` (a text listed twice in the causes is in the message once),
 * details with the group only for a named one.
 */
export function invalidStatus(kind: string, group: string, name: string, causes: readonly Cause[]): Obj {
  const texts = [...new Set(causes.map(([, message, field]) => `${field}: ${message}`))];
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`,
    reason: 'Invalid',
    details: { name, ...(group ? { group } : {}), kind, causes: causes.map(([reason, message, field]) => ({ reason, message, field })) },
    code: 422,
  };
}

/** A request with a JSON body (or `contentType`'s; none when `body` is undefined): its answer's status, parsed JSON ({} for none) and headers. */
export async function sendJson(url: string, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; json: Obj; headers: Record<string, unknown> }> {
  const r = await get(`${url}${path}`, { method, headers: { 'Content-Type': contentType, Accept: 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: JSON.parse(r.body.toString('utf8') || '{}') as Obj, headers: r.headers };
}
