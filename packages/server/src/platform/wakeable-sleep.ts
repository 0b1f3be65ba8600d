/**
 * A sleep that another part of the process can cut short: a background loop (the callback dispatcher, the
 * settlement consumer) waits with {@link WakeableSleep.sleep} and is woken early by {@link WakeableSleep.wake} when
 * there is work. One sleeper at a time; a wake with nobody asleep does nothing.
 */
export class WakeableSleep {
  private wakeSleeper: (() => void) | undefined;

  /** Resolves after `ms` milliseconds, or at the next {@link wake}, whichever comes first. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.wakeSleeper = undefined;
        resolve();
      }, ms);
      this.wakeSleeper = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  /** Ends the current sleep now, if any. */
  wake(): void {
    const w = this.wakeSleeper;
    this.wakeSleeper = undefined;
    w?.();
  }
}
