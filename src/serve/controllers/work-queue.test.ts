import { silentLogger } from '../../log/logger';
import { WorkQueue } from './work-queue';

describe('WorkQueue', () => {
  afterEach(() => jest.useRealTimers());

  /** The gaps between successive calls, less the one tick each retry takes to be handled. */
  const gaps = (calls: number[]) => calls.slice(1).map((t, i) => t - calls[i]!);

  it('retries a failing key with exponential backoff (5 ms doubling) and starts over after a success', async () => {
    jest.useFakeTimers();
    const calls: number[] = [];
    let failing = true;
    const queue = new WorkQueue(async () => {
      calls.push(Date.now());
      if (failing) throw new Error('refused by a webhook');
    }, silentLogger());
    queue.add('default/cm');
    await jest.advanceTimersByTimeAsync(200);
    const backoff = gaps(calls).slice(0, 5);
    expect(backoff.map((g, i) => g >= 5 * 2 ** i && g <= 5 * 2 ** i + 1)).toEqual([true, true, true, true, true]);
    failing = false;
    await jest.advanceTimersByTimeAsync(1000);
    const succeededAt = calls.length;
    failing = true;
    queue.add('default/cm');
    await jest.advanceTimersByTimeAsync(7);
    // After a success the next failure waits 5 ms again, not the doubled delay.
    expect(calls.length).toBe(succeededAt + 2);
    queue.stop();
  });
});
