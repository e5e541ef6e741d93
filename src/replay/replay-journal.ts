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

/** How many bytes of entries the journal keeps by default (its oldest are dropped beyond). */
export const DEFAULT_JOURNAL_BYTES = 8 * 1024 * 1024;
/** An entry's fixed cost in memory (object, seq, time, outcome, numbers), beside its strings. */
const ENTRY_BYTES = 160;

/**
 * Every request of one replay with what answered it. Keeps the most recent entries, at most
 * `limit` of them and at most `maxBytes` of them (a miss carries its explanation and candidates:
 * a benchmark or a client in a loop sends millions); the counts cover all of them, and `dropped`
 * says how many entries were let go.
 */
export class ReplayJournal {
  /** Entries in arrival order from `start`; those before it were dropped (the array is compacted now and then). */
  private entries: JournalEntry[] = [];
  /** Arrival time (ms) and estimated size of the entry at the same index. */
  private times: number[] = [];
  private sizes: number[] = [];
  private start = 0;
  private bytes = 0;
  private total = 0;
  private droppedCount = 0;
  private readonly counts: Record<JournalOutcome, number> = { matched: 0, missed: 0, proxied: 0, answered: 0 };

  constructor(private readonly limit = 100_000, private readonly maxBytes = DEFAULT_JOURNAL_BYTES) {}

  add(entry: NewEntry): JournalEntry {
    const full = entry as JournalEntry; // taken over, not copied: one object per request
    full.seq = ++this.total;
    full.at = '';
    this.counts[entry.outcome]++;
    const size = entrySize(full);
    this.entries.push(full);
    this.times.push(Date.now());
    this.sizes.push(size);
    this.bytes += size;
    while (this.entries.length - this.start > this.limit || (this.bytes > this.maxBytes && this.entries.length - this.start > 1)) this.dropOldest();
    return full;
  }

  /** Entries let go to keep within the bounds, so far. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** The estimated size of the entries kept. */
  get retainedBytes(): number {
    return this.bytes;
  }

  /** Changes an entry's outcome (a hook answered a request first counted as matched …). */
  recount(entry: JournalEntry, outcome: JournalOutcome): void {
    this.counts[entry.outcome]--;
    this.counts[outcome]++;
    entry.outcome = outcome;
  }

  list(): JournalEntry[] {
    const kept = this.entries.slice(this.start);
    kept.forEach((e, i) => {
      if (!e.at) e.at = new Date(this.times[this.start + i]!).toISOString();
    });
    return kept;
  }

  private dropOldest(): void {
    this.bytes -= this.sizes[this.start]!;
    this.entries[this.start] = undefined as unknown as JournalEntry;
    this.start++;
    this.droppedCount++;
    if (this.start >= 4096 && this.start * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.times = this.times.slice(this.start);
      this.sizes = this.sizes.slice(this.start);
      this.start = 0;
    }
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

/** About what an entry holds in memory: its strings (two bytes a character) and the candidates of a miss. */
function entrySize(e: JournalEntry): number {
  let size = ENTRY_BYTES + 2 * (e.url.length + e.method.length + (e.message?.length ?? 0));
  if (e.candidates) size += 2 * JSON.stringify(e.candidates).length;
  return size;
}
