/**
 * Whether gopkg.in/yaml.v3's resolver (resolve.go `resolve("", s)`) reads the plain text `s` as
 * something other than a string: null, bool (YAML 1.2 words only), int or float as Go's strconv
 * parses them (underscores dropped, base prefixes 0x/0o/0b and a leading 0 for octal, int64 then
 * uint64 range), `.inf`/`.nan`, or a timestamp (time.Parse of `2006-1-2`, `2006-1-2T15:4:5.999999999Z07:00`,
 * `2006-1-2t…`, `2006-1-2 15:4:5.999999999`). yaml.v3 double-quotes such a string.
 */
const WORDS = new Set([
  'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
]);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

export function resolvesToNonString(s: string): boolean {
  if (WORDS.has(s)) return true;
  const c = s[0]!;
  if (c === '.') return goFloat(s);
  if (c !== '+' && c !== '-' && !(c >= '0' && c <= '9')) return false;
  if (goTimestamp(s)) return true;
  const plain = s.replace(/_/g, '');
  if (goInt(plain, true) || goInt(plain, false)) return true;
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain) && Number.isFinite(Number(plain))) return true;
  for (const [prefix, base] of [['0b', 2], ['0o', 8]] as const) {
    if (plain.startsWith(prefix)) return digitsInRange(plain.slice(2), base, true) || digitsInRange(plain.slice(2), base, false);
    if (plain.startsWith('-' + prefix)) return digitsInRange('-' + plain.slice(3), base, true);
  }
  return false;
}

/** strconv.ParseInt(s, 0, 64) (signed) or strconv.ParseUint(s, 0, 64) succeeding; `s` has no underscores. */
function goInt(s: string, signed: boolean): boolean {
  let neg = false;
  if (signed && (s[0] === '+' || s[0] === '-')) (neg = s[0] === '-'), (s = s.slice(1));
  if (s === '') return false;
  let base = 10;
  if (s[0] === '0') {
    const p = s.length >= 3 ? s[1]!.toLowerCase() : '';
    if (p === 'b' || p === 'o' || p === 'x') (base = p === 'b' ? 2 : p === 'o' ? 8 : 16), (s = s.slice(2));
    else (base = 8), (s = s.slice(1));
    if (s === '') return base === 8;
  }
  return inRange(s, base, signed, neg);
}

/** strconv.ParseInt(s, base, 64) / ParseUint(s, base, 64) with an explicit base. */
function digitsInRange(s: string, base: number, signed: boolean): boolean {
  let neg = false;
  if (signed && (s[0] === '+' || s[0] === '-')) (neg = s[0] === '-'), (s = s.slice(1));
  return inRange(s, base, signed, neg);
}

/** Unsigned digits of `base` whose value (negated when `neg`) fits int64 (`signed`) or uint64. */
function inRange(s: string, base: number, signed: boolean, neg: boolean): boolean {
  const digit = base === 2 ? /^[01]+$/ : base === 8 ? /^[0-7]+$/ : base === 16 ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/;
  if (!digit.test(s)) return false;
  const prefix = base === 2 ? '0b' : base === 8 ? '0o' : base === 16 ? '0x' : '';
  const n = BigInt(prefix + s) * (neg ? -1n : 1n);
  return signed ? n >= INT64_MIN && n <= INT64_MAX : n <= UINT64_MAX;
}

/** strconv.ParseFloat of a text starting with `.`: digits with single underscores between them, an optional exponent, a finite result. */
function goFloat(s: string): boolean {
  if (!/^\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$/.test(s)) return false;
  return Number.isFinite(Number(s.replace(/_/g, '')));
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TIMESTAMP =
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:([Tt])([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:[.,][0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})| ([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:[.,][0-9]+)?)?$/;

function goTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && !leap ? 28 : DAYS[month - 1]!)) return false;
  const [h, mi, sec] = m[4] ? [m[5], m[6], m[7]] : [m[9], m[10], m[11]];
  if (h === undefined) return true;
  return Number(h) < 24 && Number(mi) < 60 && Number(sec) < 60;
}
