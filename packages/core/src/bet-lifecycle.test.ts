import { describe, expect, it } from 'vitest';
import {
  BET_CREATIONS,
  BET_STATES,
  BET_TRANSITIONS,
  type BetSource,
  type BetState,
  canCreate,
  canTransition,
  creation,
  INITIAL_BET_STATE,
  isBetState,
  transition,
} from './bet-lifecycle.js';
import { DomainError } from './errors.js';

describe('bet life cycle (the callback contract, "States and transitions" → "Bet")', () => {
  it('answers each allowed change with the callbacks it sends', () => {
    expect(transition('hold_requested', 'accepted')).toMatchObject({
      name: 'accept',
      callbacks: ['/bet/accept'],
    });
    expect(transition('hold_requested', 'declined').callbacks).toEqual(['/bet/decline']);
    expect(transition('hold_requested', 'force_declined').callbacks).toEqual(['/bet/decline']);
    expect(transition('hold_requested', 'place_error').callbacks).toEqual([]);
    expect(transition('accepted', 'settled').callbacks).toEqual(['/bet/settle']);
    expect(transition('unsettled', 'settled').callbacks).toEqual(['/bet/settle']);
    expect(transition('settled', 'unsettled').callbacks).toEqual(['/bet/unsettle']);
    expect(transition('accepted', 'cashed_out').when).toEqual(['/bet/cash-out-orders/accepted']);
    expect(transition('cashed_out', 'accepted').name).toBe('cash_out_given_back');
    expect(transition('accepted', 'declined')).toMatchObject({ name: 'withdraw', sources: ['mts'] });
    // a reported bet is created decided: the decisions out of hold_requested are the frame's alone
    expect(transition('hold_requested', 'accepted').sources).toEqual(['frame']);
    expect(transition('hold_requested', 'declined').sources).toEqual(['frame']);
  });

  it('creates a frame bet only in the initial state, and a reported bet only decided', () => {
    expect(creation('frame', 'hold_requested')).toMatchObject({ name: 'place', source: 'frame' });
    expect(creation('mts', 'accepted')).toMatchObject({ name: 'report', source: 'mts' });
    expect(creation('mts', 'declined')).toMatchObject({ name: 'report', source: 'mts' });
    const refused: Array<[BetSource, BetState]> = [
      ['frame', 'accepted'],
      ['frame', 'declined'],
      ['mts', 'hold_requested'],
      ['mts', 'settled'],
      ['mts', 'unsettled'],
      ['mts', 'cashed_out'],
      ['mts', 'place_error'],
      ['mts', 'force_declined'],
    ];
    for (const [source, state] of refused) {
      expect(canCreate(source, state)).toBe(false);
      let caught: unknown;
      try {
        creation(source, state);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(DomainError);
      expect((caught as DomainError).code).toBe('conflict');
      expect((caught as DomainError).message).toContain(source);
      expect((caught as DomainError).message).toContain(state);
      expect((caught as DomainError).details).toEqual({ source, state });
    }
  });

  it('creates a bet decided only in a state one decision leads to from the initial state', () => {
    const pairs = BET_CREATIONS.map((c) => `${c.source}>${c.state}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const c of BET_CREATIONS) {
      expect(isBetState(c.state)).toBe(true);
      if (c.state === INITIAL_BET_STATE) continue;
      // the same end as a bet created held and decided at once: accept or decline, nothing past the decision
      expect(['accept', 'decline']).toContain(transition(INITIAL_BET_STATE, c.state).name);
    }
    // every source creates bets; the frame's start held (the partner holds the stake before the decision)
    for (const source of ['frame', 'mts'] as const) {
      expect(BET_CREATIONS.some((c) => c.source === source)).toBe(true);
    }
    expect(BET_CREATIONS.filter((c) => c.source === 'frame').map((c) => c.state)).toEqual([
      INITIAL_BET_STATE,
    ]);
  });

  it('refuses a change the table lacks, naming both states', () => {
    const refused: Array<[BetState, BetState]> = [
      ['declined', 'settled'],
      ['settled', 'settled'],
      ['settled', 'accepted'],
      ['cashed_out', 'settled'],
      ['place_error', 'accepted'],
      ['accepted', 'hold_requested'],
      ['settled', 'cashed_out'],
    ];
    for (const [from, to] of refused) {
      expect(canTransition(from, to)).toBe(false);
      let caught: unknown;
      try {
        transition(from, to);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(DomainError);
      expect((caught as DomainError).code).toBe('conflict');
      expect((caught as DomainError).message).toContain(from);
      expect((caught as DomainError).message).toContain(to);
      expect((caught as DomainError).details).toEqual({ from, to });
    }
  });

  it('has one entry per pair, only known states, and no change into the initial state', () => {
    const pairs = BET_TRANSITIONS.map((t) => `${t.from}>${t.to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const t of BET_TRANSITIONS) {
      expect(isBetState(t.from)).toBe(true);
      expect(isBetState(t.to)).toBe(true);
      expect(t.from).not.toBe(t.to);
      expect(t.to).not.toBe(INITIAL_BET_STATE);
      expect(t.sources.length).toBeGreaterThan(0);
    }
    expect(isBetState('open')).toBe(false);
  });

  it('reaches every state from the states bets are created in, and the decisions end the placement states', () => {
    const reached = new Set<BetState>(BET_CREATIONS.map((c) => c.state));
    for (let grew = true; grew; ) {
      grew = false;
      for (const t of BET_TRANSITIONS) {
        if (reached.has(t.from) && !reached.has(t.to)) {
          reached.add(t.to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...BET_STATES].sort());
    // declined, place_error and force_declined are terminal: nothing leaves them
    for (const end of ['declined', 'place_error', 'force_declined'] as const) {
      expect(BET_TRANSITIONS.filter((t) => t.from === end)).toEqual([]);
    }
    // an accepted bet always ends settled or cashed out, or withdrawn by the partner: settled can be left only to unsettled
    expect(BET_TRANSITIONS.filter((t) => t.from === 'settled').map((t) => t.to)).toEqual(['unsettled']);
  });
});
