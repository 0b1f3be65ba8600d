/** Time source, injected so that tests and replays can drive it. */
export interface Clock {
  /** Milliseconds since the unix epoch. */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
