/**
 * What the rebuild scan needs of each observation, as small numbers: computed by SQLite for
 * observation rows (so the scan hands JS numbers instead of a string per column, without touching
 * the object bytes), and in JS for a watch frame's packed events (schema 3), which JS unpacks
 * faster than SQL can. Both forms live here and must agree (observation-facts.test.ts).
 *
 * Flags bits: source 0–1, event 2–4, form 5–6, protobuf 7, initial-events-end bookmark 9,
 * unnamed 10. Never NULL: a NULL in any term would make the whole sum NULL (a bookmark read as a
 * list item).
 */
export const SOURCES = ['list', 'watch', 'get', 'write'] as const;
export const EVENTS = [null, 'ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'OTHER'] as const;
export const FORMS = ['object', 'metadata', 'table-row'] as const;

export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** Flags of observation `o`; `rawSql` reads its object bytes (only a bookmark's are read). */
export const flagsSql = (rawSql: string) => `(CASE o.source WHEN 'list' THEN 0 WHEN 'watch' THEN 1 WHEN 'get' THEN 2 ELSE 3 END)
  + 4 * (CASE o.event WHEN 'ADDED' THEN 1 WHEN 'MODIFIED' THEN 2 WHEN 'DELETED' THEN 3 WHEN 'BOOKMARK' THEN 4 ELSE (CASE WHEN o.event IS NULL THEN 0 ELSE 5 END) END)
  + 32 * (CASE o.form WHEN 'metadata' THEN 1 WHEN 'table-row' THEN 2 ELSE 0 END)
  + 128 * (o.encoding IS 'protobuf')
  + 512 * (CASE WHEN o.event = 'BOOKMARK' THEN coalesce(instr(${rawSql}, CAST('${INITIAL_EVENTS_END}' AS BLOB)) > 0, 0) ELSE 0 END)
  + 1024 * (o.name = '')`;

/** flagsSql for watch event `id`; its object bytes are read (`objects.load`) for a bookmark only. */
export function watchEventFlags(event: string | null, form: string, protobuf: boolean, name: string,
  objects: { load(id: number): string | Buffer | undefined }, id: number): number {
  const eventCode = event === null ? 0 : event === 'ADDED' ? 1 : event === 'MODIFIED' ? 2 : event === 'DELETED' ? 3 : event === 'BOOKMARK' ? 4 : 5;
  const formCode = form === 'metadata' ? 1 : form === 'table-row' ? 2 : 0;
  const initialEventsEnd = eventCode === 4 && (objects.load(id)?.includes(INITIAL_EVENTS_END) ?? false);
  return 1 + 4 * eventCode + 32 * formCode + (protobuf ? 128 : 0) + (initialEventsEnd ? 512 : 0) + (name === '' ? 1024 : 0);
}

/** The RV as an integer when it is one (a revision), else NULL. */
export const REV_SQL = `(CASE WHEN length(rv) BETWEEN 1 AND 15 AND rv NOT GLOB '*[^0-9]*' THEN CAST(rv AS INTEGER) END)`;

const REVISION = /^[0-9]{1,15}$/;

/** REV_SQL in JS (SQLite reads text up to the first NUL). */
export function revOf(rv: string | null): number | null {
  if (rv === null) return null;
  const text = untilNul(rv);
  return REVISION.test(text) ? Number(text) : null;
}

function untilNul(s: string): string {
  const nul = s.indexOf('\0');
  return nul >= 0 ? s.slice(0, nul) : s;
}

/** A 53-bit fingerprint of the uid (its length and last six characters): enough to tell two objects of one name apart. */
export const UID_SQL = `(CASE WHEN uid IS NULL OR uid = '' THEN 0 ELSE length(uid) * 4398046511104 + ${[1, 2, 3, 4, 5, 6]
  .map((i) => `coalesce(unicode(substr(uid, -${i}, 1)), 0) % 128 * ${128 ** (i - 1)}`)
  .join(' + ')} END)`;

const ASCII = /^[\x00-\x7f]*$/;

/** UID_SQL in JS: SQLite counts characters (code points, not UTF-16 units) up to the first NUL. */
export function uidFingerprint(uid: string | null): number {
  if (uid === null) return 0;
  uid = untilNul(uid);
  if (uid === '') return 0;
  const chars = ASCII.test(uid) ? null : Array.from(uid, (c) => c.codePointAt(0)!);
  const length = chars ? chars.length : uid.length;
  let sum = length * 4398046511104;
  for (let i = 1; i <= 6 && i <= length; i++) {
    const code = chars ? chars[length - i]! : uid.charCodeAt(length - i);
    sum += (code % 128) * 128 ** (i - 1);
  }
  return sum;
}
