import type { BetRow } from '../bets/index.js';

/**
 * Whether the player of a frame session may cash out this bet: one of the player's own bets placed in the frame. A
 * bet the partner reported (`POST /bets`) is the partner's to cash out — its money is not at the platform — so the
 * frame does not find it. Without a player (the partner's API) every bet of the white label is found.
 */
export function foundFor(row: Pick<BetRow, 'player_id' | 'source'>, playerId: string | undefined): boolean {
  return playerId === undefined || (row.player_id === playerId && row.source !== 'mts');
}
