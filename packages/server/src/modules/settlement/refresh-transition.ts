/** What refreshing a bet did to it, the strongest first: resettled, settled, unsettled, or nothing. */
export type RefreshTransition = 'resettled' | 'settled' | 'unsettled' | 'none';

/** The transition a refresh of one bet made, from the counts it applied (a resettle outranks a settle, an unsettle). */
export function refreshTransition(applied: {
  resettled: number;
  settled: number;
  unsettled: number;
}): RefreshTransition {
  if (applied.resettled > 0) return 'resettled';
  if (applied.settled > 0) return 'settled';
  if (applied.unsettled > 0) return 'unsettled';
  return 'none';
}
