/**
 * resourceVersion parsing the way the apiserver's storage versioner does it
 * (APIObjectVersioner.ParseResourceVersion): "" and "0" are 0, anything else must be a decimal
 * uint64. Inside kubetape RVs are compared as integers; clients only ever see the strings.
 * Pure.
 */

/** An unparsable resourceVersion; `message` is the storage error text (`resourceVersion: Invalid value: …`). */
export class ResourceVersionError extends Error {
  override name = 'ResourceVersionError';
}

const MAX_UINT64 = 18446744073709551615n;

/** Parses an RV string to a revision number; throws ResourceVersionError with Go's wording. */
export function parseResourceVersion(value: string | undefined): number {
  if (value === undefined || value === '' || value === '0') return 0;
  if (!/^[0-9]+$/.test(value)) throw invalid(value, 'invalid syntax');
  const big = BigInt(value);
  if (big > MAX_UINT64) throw invalid(value, 'value out of range');
  // Revisions beyond 2^53 cannot be real etcd revisions; they compare as "far in the future".
  return big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
}

function invalid(value: string, why: string): ResourceVersionError {
  return new ResourceVersionError(`resourceVersion: Invalid value: ${goQuote(value)}: strconv.ParseUint: parsing ${goQuote(value)}: ${why}`);
}

/** unicode.IsPrint apart from the ASCII space: letters, marks, numbers, punctuation, symbols. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's %q for a string (strconv.Quote): JSON-like escapes, non-printables (unicode.IsPrint) as \x / \u / \U. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x07) out += '\\a';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c === 0x0b) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c !== 0x20 && !PRINTABLE.test(ch)) out += c < 0x10000 ? `\\u${c.toString(16).padStart(4, '0')}` : `\\U${c.toString(16).padStart(8, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The string clients see for a revision. */
export function formatResourceVersion(rev: number): string {
  return String(rev);
}
