import { describe, expect, it } from 'vitest';
import {
  BET_STATES,
  BET_TRANSITIONS,
  type BetState,
  canTransition,
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

  it('reaches every state from the initial one, and the decisions end the placement states', () => {
    const reached = new Set<BetState>([INITIAL_BET_STATE]);
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
