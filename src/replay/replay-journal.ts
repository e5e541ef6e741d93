import type { Candidate } from './explain-miss';
import type { MatchRoute } from './index-cursor';

/** What happened to one request. */
export const JOURNAL_OUTCOMES = ['matched', 'missed', 'proxied', 'answered'] as const;
export type JournalOutcome = (typeof JOURNAL_OUTCOMES)[number];

interface JournalFields {
  /** 1-based arrival order. */
  seq: number;
  at: string;
  method: string;
  url: string;
  outcome: JournalOutcome;
  /** matched: the recorded exchange served. proxied: the exchange recorded for it, when known. */
  exchangeId?: number;
  /** matched: the n-th request with this key. */
  occurrence?: number;
  /** matched: the recording ran out of answers for this key, the last was served again. */
  repeated?: boolean;
  route?: MatchRoute;
  status?: number;
  /** missed: the closest recorded candidates and how each differs. */
  message?: string;
  candidates?: Candidate[];
  /** answered: who answered (`health`, or a hook such as a fault rule). */
  answeredBy?: string;
}

/** One request, plus anything a hook noted (a fault rule's name …). */
export type JournalEntry = JournalFields & { [note: string]: unknown };
type NewEntry = Omit<JournalFields, 'seq' | 'at'> & { [note: string]: unknown };

export interface ReplaySummary {
  requests: number;
  served: number;
  misses: number;
  proxied: number;
  answered: number;
  /** Recorded exchanges no request used. */
  unused: number;
  recorded: number;
}

/**
 * Every request of one replay with what answered it. Keeps the last `limit` entries (a benchmark
 * sends millions); the counts cover all of them.
 */
export class ReplayJournal {
  /** A ring: once full, `next` is the oldest entry's slot. */
  private readonly ring: JournalEntry[] = [];
  private next = 0;
  private total = 0;
  /** Arrival time (ms) of the entry in the same ring slot, formatted only when the journal is read. */
  private readonly times: Float64Array;
  private readonly counts: Record<JournalOutcome, number> = { matched: 0, missed: 0, proxied: 0, answered: 0 };

  constructor(private readonly limit = 100_000) {
    this.times = new Float64Array(limit);
  }

  add(entry: NewEntry): JournalEntry {
    const full = entry as JournalEntry; // taken over, not copied: one object per request
    full.seq = ++this.total;
    full.at = '';
    this.counts[entry.outcome]++;
    let slot: number;
    if (this.ring.length < this.limit) {
      slot = this.ring.push(full) - 1;
    } else {
      slot = this.next;
      this.ring[slot] = full;
      this.next = (slot + 1) % this.limit;
    }
    this.times[slot] = Date.now();
    return full;
  }

  /** Changes an entry's outcome (a hook answered a request first counted as matched …). */
  recount(entry: JournalEntry, outcome: JournalOutcome): void {
    this.counts[entry.outcome]--;
    this.counts[outcome]++;
    entry.outcome = outcome;
  }

  list(): JournalEntry[] {
    this.ring.forEach((e, slot) => {
      if (!e.at) e.at = new Date(this.times[slot]!).toISOString();
    });
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }

  summary(recorded: number, used: number): ReplaySummary {
    const c = this.counts;
    return {
      requests: c.matched + c.missed + c.proxied + c.answered,
      served: c.matched,
      misses: c.missed,
      proxied: c.proxied,
      answered: c.answered,
      unused: recorded - used,
      recorded,
    };
  }
}

/** The summary line printed and logged when a replay ends. */
export function summaryLine(s: ReplaySummary): string {
  const extra = [s.proxied ? `${s.proxied} proxied` : '', s.answered ? `${s.answered} answered without the recording` : ''].filter(Boolean);
  return `kubetape replay: ${s.requests} requests, ${s.served} served from the recording, ${s.misses} miss${s.misses === 1 ? '' : 'es'}${extra.length ? `, ${extra.join(', ')}` : ''}; ${s.unused} of ${s.recorded} recorded exchanges never used`;
}
