/**
 * Server time of an explore run (serve's `storeClock`): it starts at a fixed instant and moves
 * one second with each committed change, so creationTimestamps, deletionTimestamps and
 * managedFields times depend on the order of the changes only, not on how fast the machine is:
 * the same plan and seed give the same timestamps.
 */
import type { Clock } from '../store/clock';

/** 2026-01-01T00:00:00Z: where every run's clock starts. */
export const RUN_CLOCK_ORIGIN_MS = Date.UTC(2026, 0, 1);

export class RunClock implements Clock {
  private changes = 0;

  constructor(private readonly origin = RUN_CLOCK_ORIGIN_MS) {}

  now(): number {
    return this.origin + this.changes * 1000;
  }

  /** A change was committed: the next one is a second later. */
  tick(): void {
    this.changes++;
  }
}
