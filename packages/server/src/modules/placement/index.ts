/** Placement of a frame bet, as named steps (form, hold, decide and write, answer; compensation of a failed hold). */
export type { PlacementDeps, PlacementSettings } from './deps.js';
export { DEFAULT_PLACE_POLICY, type PlaceOutcome, type PlaceRetryPolicy } from './hold.js';
export { placeBet } from './place-bet.js';
