import { EventEmitter } from 'node:events';
import type { BetView } from '@bookie/contracts';

/** A change of a bet, for the player's live stream. */
export interface BetChange {
  whiteLabelId: string;
  playerId: string;
  bet: BetView;
}

/** In-process notifications of bet changes (placement, settlement) for the frame API's live stream. */
export class BetEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** True when some live stream listens (callers may skip building views otherwise). */
  get listening(): boolean {
    return this.emitter.listenerCount('change') > 0;
  }

  emit(change: BetChange): void {
    this.emitter.emit('change', change);
  }

  /** Subscribes to one player's bet changes; returns the unsubscribe function. */
  subscribe(whiteLabelId: string, playerId: string, fn: (bet: BetView) => void): () => void {
    const listener = (c: BetChange) => {
      if (c.whiteLabelId === whiteLabelId && c.playerId === playerId) fn(c.bet);
    };
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
}
