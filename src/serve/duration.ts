/** Go-style durations for flags: `500ms`, `60s`, `5m`, `1h30m`; a number needs its unit (`0` excepted), as in Go. */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const value = text.trim();
  if (/^0+(\.0+)?$/.test(value)) return 0;
  if (/^\d+(\.\d+)?$/.test(value)) throw new Error(`missing unit in duration "${text}" (use e.g. ${value}s or ${value}m)`);
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) {
    throw new Error(`invalid duration "${text}" (use e.g. 500ms, 60s, 5m, 1h30m)`);
  }
  return parts.reduce((ms, p) => ms + Number(p[1]) * UNITS[p[2]!]!, 0);
}
