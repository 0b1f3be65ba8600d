/**
 * Whether the partner is paid for this bet's cash-outs through the cash-out callbacks: bets placed in the frame,
 * whose money the partner's wallet holds for the platform. A bet the partner reported itself (`POST /bets`) takes
 * its money through the partner's own flow: the partner places the cash-out and knows its answer.
 */
export function paysThroughCallbacks(row: { source?: 'frame' | 'mts' }): boolean {
  return row.source !== 'mts';
}
