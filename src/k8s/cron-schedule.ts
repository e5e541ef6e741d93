/**
 * A CronJob schedule as github.com/robfig/cron/v3's ParseStandard reads it (five fields: minute,
 * hour, day of month, month, day of week; names jan–dec and sun–sat; `*`, `?`, ranges, steps,
 * lists; the @yearly … @hourly and `@every <duration>` descriptors; a `TZ=` or `CRON_TZ=` prefix),
 * returning the parser's error text for one it refuses — and time.LoadLocation's answer for a
 * time zone name, with ICU's zone list standing in for the zoneinfo files. Pure.
 */

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
/** minute, hour, dom, month, dow. */
const FIELDS: Bounds[] = [{ min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 }, { min: 1, max: 12, names: MONTHS }, { min: 0, max: 6, names: DAYS }];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** The error text cron.ParseStandard returns for `spec`, undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  if (spec.length === 0) return 'empty spec string';
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const name = spec.slice(spec.indexOf('=') + 1, space < 0 ? spec.length : space);
    const err = loadLocationError(name);
    if (err) return `provided bad location ${name}: ${err}`;
    spec = space < 0 ? '' : spec.slice(space).trim();
  }
  if (spec.startsWith('@')) return descriptorError(spec);
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    for (const expr of fields[i]!.split(',').filter((e) => e !== '')) {
      const err = rangeError(expr, FIELDS[i]!);
      if (err) return err;
    }
  }
  return undefined;
}

function descriptorError(descriptor: string): string | undefined {
  if (DESCRIPTORS.has(descriptor)) return undefined;
  if (descriptor.startsWith('@every ')) {
    const err = durationError(descriptor.slice('@every '.length));
    return err ? `failed to parse duration ${descriptor}: ${err}` : undefined;
  }
  return `unrecognized descriptor: ${descriptor}`;
}

/** getRange: `*`, `?`, `n`, `a-b`, each with an optional `/step`. */
function rangeError(expr: string, r: Bounds): string | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    const low = intOrName(lowAndHigh[0]!, r.names);
    if (typeof low === 'string') return low;
    start = low;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const high = intOrName(lowAndHigh[1]!, r.names);
      if (typeof high === 'string') return high;
      end = high;
    } else return `too many hyphens: ${expr}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const parsed = mustParseInt(rangeAndStep[1]!);
    if (typeof parsed === 'string') return parsed;
    step = parsed;
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < r.min) return `beginning of range (${start}) below minimum (${r.min}): ${expr}`;
  if (end > r.max) return `end of range (${end}) above maximum (${r.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  return undefined;
}

function intOrName(expr: string, names: Record<string, number> | undefined): number | string {
  const named = names?.[expr.toLowerCase()];
  return named !== undefined ? named : mustParseInt(expr);
}

/** mustParseInt: strconv.Atoi, then no negatives. */
function mustParseInt(expr: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(expr)) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`;
  const n = BigInt(expr);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`;
  if (n < 0n) return `negative number (${n}) not allowed: ${expr}`;
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** time.ParseDuration's error text, undefined when `s` parses. */
function durationError(orig: string): string | undefined {
  const invalid = `time: invalid duration ${JSON.stringify(orig)}`;
  let s = orig;
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return undefined;
  if (s === '') return invalid;
  while (s !== '') {
    const num = /^([0-9]*)(\.([0-9]*))?/.exec(s)!;
    const pre = num[1]!.length > 0;
    const post = num[3] !== undefined && num[3].length > 0;
    if (!/^[0-9.]/.test(s) || (!pre && !post)) return invalid;
    s = s.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(s)![0];
    if (unit === '') return `time: missing unit in duration ${JSON.stringify(orig)}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(orig)}`;
    s = s.slice(unit.length);
  }
  return undefined;
}

/** time.LoadLocation's error text for `name`, undefined when Go finds the zone. */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return 'time: invalid location name';
  const unknown = `unknown time zone ${name}`;
  if (!/^[A-Za-z]/.test(name)) return unknown;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return unknown;
  }
  // ICU matches names case-insensitively; the zoneinfo files Go reads do not.
  if (resolved.toLowerCase() === name.toLowerCase() && resolved !== name) return unknown;
  return undefined;
}
