/**
 * Failure injection for tests: a share of callback requests is answered 500 without
 * being processed, processed but answered 500 (a lost answer), processed but the connection dropped, answered slowly,
 * or answered 201 instead of 204 (D8: any 2xx is success). Configured at start and at runtime (`PUT /admin/faults`).
 * Decisions come from a seeded PRNG, so a run can be repeated.
 *
 * @packageDocumentation
 */
import { validationError } from '@bookie/core';

/** The fault settings. Rates are shares in [0, 1]; 0 everywhere means no faults. */
export interface FaultConfig {
  /** Share of callbacks answered 500 before anything is applied. */
  error500Rate: number;
  /** Share of callbacks applied, then answered 500 (the answer is "lost"; the retry must replay). */
  lostAnswerRate: number;
  /** Share of callbacks applied, then the connection is destroyed without an answer. */
  dropRate: number;
  /** Share of callbacks answered late, after being applied. */
  delayRate: number;
  /** How late, in ms. */
  delayMs: number;
  /** Share of 204 answers sent as 201 (DECISIONS D8). */
  created201Rate: number;
  /** PRNG seed (a 32-bit integer). */
  seed: number;
}

/** No faults. */
export const NO_FAULTS: FaultConfig = {
  error500Rate: 0,
  lostAnswerRate: 0,
  dropRate: 0,
  delayRate: 0,
  delayMs: 0,
  created201Rate: 0,
  seed: 1,
};

const RATE_KEYS = ['error500Rate', 'lostAnswerRate', 'dropRate', 'delayRate', 'created201Rate'] as const;

/**
 * Validates a partial fault config (from JSON or flags).
 *
 * @throws DomainError `validation_error` naming the field.
 */
export function parseFaults(input: unknown): Partial<FaultConfig> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw validationError('body', 'must be an object');
  }
  const out: Partial<FaultConfig> = {};
  for (const [k, v] of Object.entries(input)) {
    if ((RATE_KEYS as readonly string[]).includes(k)) {
      if (typeof v !== 'number' || !(v >= 0 && v <= 1))
        throw validationError(k, 'must be a number in [0, 1]');
      out[k as (typeof RATE_KEYS)[number]] = v;
    } else if (k === 'delayMs') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 600_000) {
        throw validationError(k, 'must be an integer number of ms in [0, 600000]');
      }
      out.delayMs = v;
    } else if (k === 'seed') {
      if (typeof v !== 'number' || !Number.isInteger(v)) throw validationError(k, 'must be an integer');
      out.seed = v;
    } else {
      throw validationError(k, 'is not a fault setting');
    }
  }
  return out;
}

/** What to do with one callback request. */
export interface FaultDecision {
  error500: boolean;
  lostAnswer: boolean;
  drop: boolean;
  delayMs: number;
  created201: boolean;
}

/** The decision of a request that draws no fault (one shared object, never changed). */
export const NO_FAULT: FaultDecision = Object.freeze({
  error500: false,
  drop: false,
  lostAnswer: false,
  delayMs: 0,
  created201: false,
});

/** The live fault settings and their PRNG (mulberry32). */
export class Faults {
  #config: FaultConfig;
  #state: number;

  constructor(config: Partial<FaultConfig> = {}) {
    this.#config = { ...NO_FAULTS, ...config };
    this.#state = this.#config.seed >>> 0;
  }

  /** The current settings. */
  get config(): FaultConfig {
    return { ...this.#config };
  }

  /** Merges new settings; a new `seed` restarts the PRNG. */
  update(patch: Partial<FaultConfig>): FaultConfig {
    this.#config = { ...this.#config, ...patch };
    if (patch.seed !== undefined) this.#state = patch.seed >>> 0;
    return this.config;
  }

  #random(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  #roll(rate: number): boolean {
    return rate > 0 && this.#random() < rate;
  }

  /** Draws the faults of one request: {@link NO_FAULT} itself when none is drawn. */
  decide(): FaultDecision {
    const c = this.#config;
    const error500 = this.#roll(c.error500Rate);
    const drop = !error500 && this.#roll(c.dropRate);
    const lostAnswer = !error500 && !drop && this.#roll(c.lostAnswerRate);
    const delayMs = this.#roll(c.delayRate) ? c.delayMs : 0;
    const created201 = this.#roll(c.created201Rate);
    if (!error500 && !drop && !lostAnswer && delayMs === 0 && !created201) return NO_FAULT;
    return { error500, drop, lostAnswer, delayMs, created201 };
  }
}
