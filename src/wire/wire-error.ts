/**
 * A body or frame that cannot be decoded: missing magic, truncated varint or field, malformed
 * JSON. The decoders never guess; they throw this with a reason a human can act on.
 */
export class WireError extends Error {
  override name = 'WireError';
}
