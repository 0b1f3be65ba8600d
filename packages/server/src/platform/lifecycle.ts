/**
 * Start/stop bookkeeping for background work (dispatchers, consumers, retention jobs).
 * Stoppers run in reverse order of registration, so that what started last stops first.
 */
export class Lifecycle {
  private readonly stoppers: Array<{ name: string; stop: () => Promise<void> }> = [];
  private stopping = false;

  /** True once shutdown has begun; readiness answers 503 from then on. */
  get isStopping(): boolean {
    return this.stopping;
  }

  /** Registers work to stop at shutdown. */
  onStop(name: string, stop: () => Promise<void>): void {
    this.stoppers.push({ name, stop });
  }

  /** Runs every stopper once, last registered first; errors are reported, not thrown. */
  async stop(onError: (name: string, err: unknown) => void = () => {}): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const { name, stop } of [...this.stoppers].reverse()) {
      try {
        await stop();
      } catch (err) {
        onError(name, err);
      }
    }
  }
}
