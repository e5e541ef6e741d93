import Database from 'better-sqlite3';
import { REV_SQL, UID_SQL, flagsSql, revOf, uidFingerprint, watchEventFlags } from './observation-facts';

/** The JS forms (for packed watch events) give what SQLite gives for observation rows, value for value. */
describe('observation facts: SQL and JS agree', () => {
  const db = new Database(':memory:');
  afterAll(() => db.close());

  test('uid fingerprints, ASCII or not, shorter than six characters or empty', () => {
    const uids = [null, '', 'a', 'ab', '0b0c0d0e-aaaa-bbbb-cccc-000000000001', 'u-c1', 'ü-😀', '😀😀😀😀😀😀😀', 'x\u0000y', 'é'];
    const sql = db.prepare(`SELECT ${UID_SQL} FROM (SELECT ? AS uid)`).pluck();
    for (const uid of uids) expect([uid, uidFingerprint(uid)]).toEqual([uid, sql.get(uid)]);
  });

  test('resourceVersions: integers up to 15 digits, anything else none', () => {
    const rvs = [null, '', '0', '12', '007', '123456789012345', '1234567890123456', '12a', ' 1', '-1', '1.5', '٣', '1\u00002', '\u00001'];
    const sql = db.prepare(`SELECT ${REV_SQL} FROM (SELECT ? AS rv)`).pluck();
    for (const rv of rvs) expect([rv, revOf(rv)]).toEqual([rv, sql.get(rv) ?? null]);
  });

  test('flags of watch events: each event type and form, protobuf, unnamed, the initial-events-end bookmark', () => {
    const sql = db.prepare(`SELECT ${flagsSql('o.raw')} FROM (SELECT 'watch' AS source, ? AS event, ? AS form, ? AS encoding, ? AS name, ? AS raw) o`).pluck();
    const end = Buffer.from('{"metadata":{"annotations":{"k8s.io/initial-events-end":"true"}}}');
    for (const event of [null, 'ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']) {
      for (const form of ['object', 'metadata', 'table-row']) {
        for (const encoding of ['json', 'protobuf']) {
          for (const [name, raw] of [['a', end], ['', end], ['', Buffer.from('{}')]] as const) {
            const js = watchEventFlags(event, form, encoding === 'protobuf', name, { load: () => raw }, 1);
            expect([event, form, encoding, name, raw.length, js]).toEqual([event, form, encoding, name, raw.length, sql.get(event, form, encoding, name, raw)]);
          }
        }
      }
    }
  });
});
