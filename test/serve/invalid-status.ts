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
