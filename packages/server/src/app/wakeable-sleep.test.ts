import { describe, expect, it } from 'vitest';
import { WakeableSleep } from './wakeable-sleep.js';

describe('WakeableSleep', () => {
  it('ends a sleep early on wake, and otherwise after its time', async () => {
    const s = new WakeableSleep();
    s.wake(); // nobody asleep: nothing to end, and the next sleep is not cut short by it
    const t0 = performance.now();
    const woken = s.sleep(10_000);
    setTimeout(() => s.wake(), 20);
    await woken;
    expect(performance.now() - t0).toBeLessThan(5_000);
    const t1 = performance.now();
    await s.sleep(30);
    expect(performance.now() - t1).toBeGreaterThanOrEqual(25);
  });
});
