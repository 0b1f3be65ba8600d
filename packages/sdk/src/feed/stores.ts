/**
 * Where a {@link FeedReplica} persists its state. The version is only ever persisted together with the state it
 * belongs to (the feed contract's client procedure, step 3): a store saves and loads one opaque text that holds both.
 *
 * @packageDocumentation
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SportEvent } from '@bookie/contracts';

/** A place to keep a replica's state between runs. */
export interface ReplicaStore {
  /** The last saved state, or undefined when none was saved. */
  load(): Promise<string | undefined>;
  /** Replaces the saved state atomically (a crash leaves the old state or the new one, never a mix). */
  save(data: string): Promise<void>;
}

/** Keeps the state in memory: survives a replica's restart within one process (tests, short-lived tools). */
export class MemoryReplicaStore implements ReplicaStore {
  private data: string | undefined;
  async load(): Promise<string | undefined> {
    return this.data;
  }
  async save(data: string): Promise<void> {
    this.data = data;
  }
}

/**
 * Keeps the state in a file: written to `<path>.tmp`, flushed, then renamed over `path`, so a crash never leaves
 * a torn file. The directory is created when missing.
 */
export class FileReplicaStore implements ReplicaStore {
  constructor(readonly path: string) {}
  async load(): Promise<string | undefined> {
    try {
      return await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
  async save(data: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    await writeFile(tmp, data, { flush: true });
    await rename(tmp, this.path);
  }
}

/** The saved form: a header line `{"version":"<v>"}` then one snapshot per line. */
export function serialiseState(version: bigint, events: Iterable<SportEvent>): string {
  const parts = [`{"version":"${version}"}`];
  for (const e of events) parts.push(JSON.stringify(e));
  return `${parts.join('\n')}\n`;
}

/**
 * Parses {@link serialiseState}'s output.
 * @throws Error when the text is not a saved state.
 */
export function parseState(data: string): { version: bigint; events: SportEvent[] } {
  const lines = data.split('\n').filter((l) => l.length > 0);
  const head = JSON.parse(lines[0] ?? 'null') as { version?: unknown } | null;
  if (!head || typeof head.version !== 'string' || !/^\d+$/.test(head.version)) {
    throw new Error('not a saved feed replica state');
  }
  return { version: BigInt(head.version), events: lines.slice(1).map((l) => JSON.parse(l) as SportEvent) };
}
