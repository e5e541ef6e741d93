/**
 * Server-side apply against serve: the real apiserver's w3-apply exchanges replayed in their
 * recorded order (status and body byte for byte, managedFields included, uids, timestamps and
 * resourceVersions masked).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { replayExchanges, startedAt } from './write-transcripts';
import { writeCluster, type WriteCluster } from './write-cluster';

const ALL = readdirSync(join(__dirname, '..', 'fixtures', 'transcripts')).filter((f) => /^w3-/.test(f) && f.endsWith('.txt')).map((f) => f.slice(0, -4));

describe('serve writes: server-side apply, the real apiserver\'s exchanges', () => {
  let c: WriteCluster;
  let now = 0;
  beforeEach(async () => {
    // Server time is the recorded time of the exchange being replayed: managedFields entries are
    // sorted by time, so they come out in the real order only with the real times.
    c = await writeCluster({ storeClock: { now: () => now } });
  });
  afterEach(() => c.close());

  async function mismatches(names: string[]) {
    const results = await replayExchanges(c.api.url, names, {}, [], (name) => (now = Date.parse(startedAt(name))));
    expect(results.length).toBe(names.length);
    return results.filter((r) => r.actual !== r.expected);
  }

  it('w3-apply0: create, re-apply, conflict, force, a conflict over a field taken by force', async () => {
    expect(await mismatches(ALL.filter((n) => n.startsWith('w3-apply0-')))).toEqual([]);
  });

  it('w3-apply: conflicts (one, several), force, dropped fields, an Update manager beside appliers, every error', async () => {
    const names = ALL.filter((n) => n.startsWith('w3-apply-')).concat('w3-patch-merge-manager-c-after-apply');
    const wrong = await mismatches(names);
    // A repeated key applies its last value; the conflicts' causes come in Go map order there,
    // so that answer is compared with its causes sorted.
    const sorted = (s: string) => {
      const status = JSON.parse(s.slice(4));
      status.details?.causes?.sort((x: { message: string }, y: { message: string }) => x.message.localeCompare(y.message));
      return `${s.slice(0, 4)}${JSON.stringify(status)}`;
    };
    expect(wrong.filter((r) => !(r.name === 'w3-apply-duplicate-key' && sorted(r.actual) === sorted(r.expected)))).toEqual([]);
  });
});
