import { afterEach, describe, expect, it, vi } from 'vitest';
import { WakeableSleep } from './wakeable-sleep.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('WakeableSleep', () => {
  it('ends a sleep early on wake, and otherwise after its time', async () => {
    // the clock is the test's: no assertion depends on how fast the machine is
    vi.useFakeTimers();
    const s = new WakeableSleep();
    s.wake(); // nobody asleep: nothing to end, and the next sleep is not cut short by it
    let woken = false;
    const long = s.sleep(10_000).then(() => {
      woken = true;
    });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(woken).toBe(false);
    s.wake();
    await long;
    expect(woken).toBe(true);

    let slept = false;
    const short = s.sleep(30).then(() => {
      slept = true;
    });
    await vi.advanceTimersByTimeAsync(29);
    expect(slept).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await short;
    expect(slept).toBe(true);
  });
});
