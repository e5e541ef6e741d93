import type { ActionType } from './definition';
import type { FaultRequest } from './fault-request';

/** One applied fault, as `faults.journal()` lists it and the modes include in their journal. */
export interface FaultJournalEntry {
  seq: number;
  /** ISO time, by the injector's clock. */
  time: string;
  rule: string;
  action: ActionType;
  method: string;
  url: string;
  verb: string;
  resource: string;
  namespace: string;
  name: string;
  /** What the fault did: `answered 429 TooManyRequests`, `watch ended with ERROR 410 after 3 events`. */
  effect: string;
}

/** The applied faults, oldest first; keeps the last `capacity` entries. */
export class FaultJournal {
  private readonly entries: FaultJournalEntry[] = [];
  private seq = 0;

  constructor(
    private readonly now: () => number,
    private readonly capacity = 10_000,
  ) {}

  add(rule: string, action: ActionType, req: FaultRequest, effect: string): FaultJournalEntry {
    const { info } = req;
    const entry: FaultJournalEntry = {
      seq: ++this.seq,
      time: new Date(this.now()).toISOString(),
      rule,
      action,
      method: req.method,
      url: req.url,
      verb: info.verb,
      resource: info.resource,
      namespace: info.namespace,
      name: info.name,
      effect,
    };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return entry;
  }

  list(): FaultJournalEntry[] {
    return [...this.entries];
  }
}
