/**
 * The `format`s a v1.26 apiserver checks on custom resources (apiextensions-apiserver's
 * supported formats, checked by kube-openapi's strfmt registry); a format outside the list
 * (`int32`, `int64`, `float`, `double`, any other name) is not checked. A format name is looked
 * up without its dashes (`date-time` is `datetime`). Pure.
 */
import { parseGoUrl } from '../k8s/go-url';
import { isCidr, parseIp } from '../k8s/ip-address';

const HOSTNAME = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const DATE_TIME_TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const GO_DURATION = /^[-+]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const DURATION_PART = /(\d+)\s*([A-Za-zµ]+)/g;
const DURATION_UNITS = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];
const UNIT_NANOS: Record<string, bigint> = { ns: 1n, us: 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n, d: 86_400_000_000_000n, w: 604_800_000_000_000n };
/** strfmt's UUID patterns: the variant nibble is checked for versions 4 and 5 only. */
const uuid = (version: string) => new RegExp(`^[0-9a-f]{8}-?[0-9a-f]{4}-?${version}[0-9a-f]{3}-?${version === '4' || version === '5' ? '[89ab]' : '[0-9a-f]'}[0-9a-f]{3}-?[0-9a-f]{12}$`, 'i');

const CHECKS: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestUri,
  email: (s) => /^(?:[^<>@\s]+@[^<>@\s]+\.?[^<>@\s]*|[^<>]*<[^<>@\s]+@[^<>@\s]+>)$/.test(s.trim()),
  hostname: (s) => HOSTNAME.test(s) && s.length <= 255 && s.split('.').every((p) => Buffer.byteLength(p) <= 63),
  ipv4: (s) => parseIp(s) !== undefined && s.includes('.'),
  ipv6: (s) => s.includes(':') && parseIp(s) !== undefined,
  cidr: isCidr,
  mac: isMac,
  uuid: (s) => uuid('[0-9a-f]').test(s),
  uuid3: (s) => uuid('3').test(s),
  uuid4: (s) => uuid('4').test(s),
  uuid5: (s) => uuid('5').test(s),
  isbn: (s) => isIsbn(s, 10) || isIsbn(s, 13),
  isbn10: (s) => isIsbn(s, 10),
  isbn13: (s) => isIsbn(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/.test(s),
  byte: (s) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/** Whether `value` is of `format`; true for formats the apiserver does not check. */
export function matchesFormat(format: string, value: string): boolean {
  const check = CHECKS[format.replace(/-/g, '')];
  return check ? check(value) : true;
}

/** Go's time.Parse("2006-01-02", s): four digits, a month 01–12, a day the month has. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** strfmt.IsDateTime: a date, a `t`, then hh:mm:ss with an optional fraction and a zone (case-insensitive). */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = DATE_TIME_TIME.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

function isDuration(s: string): boolean {
  return durationText(s) !== undefined;
}

/**
 * strfmt.ParseDuration: Go's time.ParseDuration syntax (returned as it is), else the sum of every
 * `N unit` the Scala-like syntax knows (`3 days`, `2 hours 5 min`) as nanoseconds (`259200000000000ns`);
 * undefined when neither reads it.
 */
export function durationText(s: string): string | undefined {
  if (s === '0' || GO_DURATION.test(s)) return s;
  let nanos = 0n;
  let ok = false;
  for (const m of s.matchAll(DURATION_PART)) {
    const unit = m[2]!.toLowerCase().trim();
    for (const variants of DURATION_UNITS) {
      for (const [i, v] of variants.entries()) {
        if ((i === variants.length - 1 && unit.startsWith(v)) || v === unit) {
          ok = true;
          nanos += BigInt(m[1]!) * UNIT_NANOS[variants[0]!]!;
        }
      }
    }
  }
  return ok ? `${nanos}ns` : undefined;
}

/** govalidator.IsRequestURI (url.ParseRequestURI succeeds): an absolute URL or an absolute path. */
function isRequestUri(s: string): boolean {
  const parsed = parseGoUrl(s);
  return typeof parsed !== 'string' && (parsed.scheme !== '' || s.startsWith('/'));
}

/** govalidator.IsISBN: spaces and dashes dropped, then ISBN-10's or ISBN-13's digits and checksum. */
function isIsbn(s: string, version: 10 | 13): boolean {
  const d = s.replace(/[\t\n\f\r -]+/g, '');
  const digit = (i: number) => d.charCodeAt(i) - 48;
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(d)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * digit(i);
    sum += 10 * (d[9] === 'X' ? 10 : digit(9));
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * digit(i);
  return digit(12) === (10 - (sum % 10)) % 10;
}

/** govalidator.IsCreditCard: the digits (all else dropped) of a known issuer's number, with a valid Luhn checksum. */
function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]+/g, '');
  if (!/^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/.test(d)) return false;
  let sum = 0;
  let double = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = d.charCodeAt(i) - 48;
    if (double) n = n * 2 >= 10 ? ((n * 2) % 10) + 1 : n * 2;
    sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

/** net.ParseMAC: 6, 8 or 20 bytes as hex pairs all separated by ':' or all by '-', or as dotted groups of four. */
function isMac(s: string): boolean {
  const hex = '[0-9A-Fa-f]';
  return [6, 8, 20].some((n) => new RegExp(`^${hex}{2}([:-])${hex}{2}(?:\\1${hex}{2}){${n - 2}}$`).test(s) || new RegExp(`^${hex}{4}(?:\\.${hex}{4}){${n / 2 - 1}}$`).test(s));
}
