/** Tuning of a {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** Most items in one flush (default 256). */
  maxBatch?: number;
  /** Flushes running at once (default 1); items that arrive while all are busy wait for the next one. */
  maxConcurrent?: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: callers {@link GroupCommit.submit} one item each and get their own result, while the items that
 * arrive together — in the same turn of the event loop, or while a flush is running — are written by one call of
 * `flush`. Under load one transaction (and one statement per table) serves many requests, instead of one round trip
 * per request and table; alone, an item waits only for the current turn of the event loop.
 *
 * `flush(items)` must be all-or-nothing (one transaction) and return one result per item, in order. When it throws
 * for a batch of several items, each item is flushed again alone, so one bad item (a constraint it breaks, say) fails
 * only its own caller and the others still commit.
 */
export class GroupCommit<I, O> {
  private readonly waiting: Waiting<I, O>[] = [];
  private running = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxConcurrent: number;

  constructor(
    private readonly flush: (items: readonly I[]) => Promise<readonly O[]>,
    opts: GroupCommitOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 256;
    this.maxConcurrent = opts.maxConcurrent ?? 1;
  }

  /** Queues `item` for the next flush; resolves with its result once that flush committed, or rejects with its error. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // gather what arrives in this turn of the event loop
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.running < this.maxConcurrent && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async run(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const out = await this.flush(batch.map((w) => w.item));
      if (out.length !== batch.length)
        throw new Error(`flush returned ${out.length} results for ${batch.length}`);
      batch.forEach((w, i) => {
        w.resolve(out[i] as O);
      });
    } catch (err) {
      if (batch.length === 1) {
        batch[0]?.reject(err);
        return;
      }
      // the batch rolled back as a whole: find the culprit by flushing each item alone
      for (const w of batch) {
        try {
          const [out] = await this.flush([w.item]);
          w.resolve(out as O);
        } catch (e) {
          w.reject(e);
        }
      }
    }
  }
}
