import { SECRET_HEADERS } from '../log/logger';

export const REDACTED = '[redacted]';

const SECRET_NAMES = new Set(SECRET_HEADERS);
/** Any header whose name says it carries a credential (X-Custom-Auth, X-Api-Key, X-Session-Token …). */
const SECRET_PATTERN = /auth|token|secret|passw|key|credential|cookie/i;
/** Header names whose values are a challenge or a nonce, not a credential, and that replay needs as recorded. */
const NOT_SECRET = new Set(['www-authenticate', 'sec-websocket-key', 'sec-websocket-accept']);
/** The bearer token a WebSocket client (kubectl exec) passes as a subprotocol. */
const BEARER_PROTOCOL = /(base64url\.bearer\.authorization\.k8s\.io\.)[^,\s]*/gi;
/** Query parameters that carry a credential. */
const SECRET_QUERY = /([?&](?:access_token|token|bearer_token|password)=)[^&#]*/gi;

/** Header names already judged (clients send the same few on every request); bounded. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 512;

export function isSecretHeader(name: string): boolean {
  let secret = judged.get(name);
  if (secret === undefined) {
    const lower = name.toLowerCase();
    secret = SECRET_NAMES.has(lower) || (SECRET_PATTERN.test(lower) && !NOT_SECRET.has(lower));
    if (judged.size < JUDGED_MAX) judged.set(name, secret);
  }
  return secret;
}

/** A header value with any credential inside it replaced (the bearer token in Sec-WebSocket-Protocol). */
function redactValue(name: string, value: string): string {
  if (isSecretHeader(name)) return REDACTED;
  if (name.length === 22 && name.toLowerCase() === 'sec-websocket-protocol') return value.replace(BEARER_PROTOCOL, `$1${REDACTED}`);
  return value;
}

/**
 * Node's `rawHeaders` (name, value, name, value …) as the JSON `[[name, value], …]` the recording
 * keeps: names as sent, order kept, credentials replaced by "[redacted]".
 */
export function headersJson(rawHeaders: readonly string[]): string {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    pairs.push([name, redactValue(name, rawHeaders[i + 1]!)]);
  }
  return JSON.stringify(pairs);
}

/** A request target with the values of credential query parameters (`access_token=`) replaced by "[redacted]". */
export function redactUrl(url: string): string {
  return url.includes('=') ? url.replace(SECRET_QUERY, `$1${REDACTED}`) : url;
}
