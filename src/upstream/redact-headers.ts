import { SECRET_HEADERS } from '../log/logger';

export const REDACTED = '[redacted]';

const SECRET_NAMES = new Set(SECRET_HEADERS);
/** Any header whose name says it carries a credential. */
const SECRET_PATTERN = /token|secret|password|api-?key|credential/i;

/** Header names already judged (clients send the same few on every request); bounded. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 512;

export function isSecretHeader(name: string): boolean {
  let secret = judged.get(name);
  if (secret === undefined) {
    const lower = name.toLowerCase();
    secret = SECRET_NAMES.has(lower) || SECRET_PATTERN.test(lower);
    if (judged.size < JUDGED_MAX) judged.set(name, secret);
  }
  return secret;
}

/**
 * Node's `rawHeaders` (name, value, name, value …) as the JSON `[[name, value], …]` the recording
 * keeps: names as sent, order kept, credentials replaced by "[redacted]".
 */
export function headersJson(rawHeaders: readonly string[]): string {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    pairs.push([name, isSecretHeader(name) ? REDACTED : rawHeaders[i + 1]!]);
  }
  return JSON.stringify(pairs);
}
