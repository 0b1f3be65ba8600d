import type { SportEvent } from '@bookie/contracts';
import { describe, expect, it } from 'vitest';
import { BuilderDesk, builderSelectionBody } from './builder.js';

const event = {
  id: 'e1',
  markets: {
    '1': { specifiers: {}, odds: {} },
    '18:total=2.5': { specifiers: { total: '2.5' }, odds: {} },
  },
} as unknown as SportEvent;

/** A desk whose calculator answers from `answer`; `calls` records what it asked. */
function desk(answer: (path: string, body: { legs?: unknown[] }) => unknown) {
  const calls: Array<{ path: string; body: { legs?: unknown[] } }> = [];
  let changes = 0;
  const d = new BuilderDesk({
    call: async <T>(path: string, init?: { body?: unknown }) => {
      const body = init?.body as { legs?: unknown[] };
      calls.push({ path, body });
      return answer(path, body) as T;
    },
    event: () => event,
    changed: () => {
      changes++;
    },
  });
  return { d, calls, changes: () => changes };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the frame bet builder', () => {
  it('asks for the selections first, then calculates the picked legs with their specifiers', async () => {
    const { d, calls } = desk((path, body) =>
      path.endsWith('/selections')
        ? { available: true, selections: [{ market_id: '1', odd_id: '1', label: 'h', odds: '1.900000' }] }
        : {
            available: true,
            odds: '3.290000',
            quote: 'q.sig',
            legs: [],
            selections:
              (body.legs?.length ?? 0) === 1
                ? [{ market_id: '18:total=2.5', odd_id: '12', label: 'o', odds: '3.290000' }]
                : [],
          },
    );
    d.open('e1');
    await settle();
    expect(calls[0]).toEqual({ path: '/frame-api/bet-builder/selections', body: { sport_event_id: 'e1' } });
    expect(d.legState('1', '1')).toEqual({ picked: false, odds: '1.900000' });
    expect(d.legState('1', '2')).toEqual({ picked: false, block: 'unsupported' });
    d.toggle('1', '1');
    await settle();
    expect(d.legState('1', '2')).toEqual({ picked: false, block: 'sameMarket' });
    expect(d.legState('29', '74')).toEqual({ picked: false, block: 'combination' });
    d.toggle('18:total=2.5', '12');
    await settle();
    expect(calls.at(-1)).toEqual({
      path: '/frame-api/bet-builder/calculate',
      body: {
        sport_event_id: 'e1',
        legs: [
          { market_id: '1', odd_id: '1' },
          { market_id: '18:total=2.5', specifiers: { total: '2.5' }, odd_id: '12' },
        ],
      },
    });
    const b = d.slipBuilder()!;
    expect(b).toMatchObject({ sportEventId: 'e1', odds: '3.290000', quote: 'q.sig' });
    expect(builderSelectionBody(b)).toEqual({
      sport_event_id: 'e1',
      legs: [
        { market_id: '1', odd_id: '1' },
        { market_id: '18:total=2.5', specifiers: { total: '2.5' }, odd_id: '12' },
      ],
      odds: '3.290000',
      quote: 'q.sig',
    });
  });

  it('keeps only the answer to the latest question, and offers no builder while one is refused', async () => {
    const pending: Array<(v: unknown) => void> = [];
    const d = new BuilderDesk({
      call: <T>() => new Promise<T>((r) => pending.push(r as (v: unknown) => void)),
      event: () => event,
      changed: () => {},
    });
    d.open('e1');
    d.toggle('1', '2');
    pending[1]!({
      available: false,
      refusal: { reason: 'contradictory', message: 'no final score wins every leg' },
      legs: [],
      selections: [],
    });
    await settle();
    pending[0]!({ available: true, selections: [] });
    await settle();
    expect(d.view).toMatchObject({ available: false, refusal: { reason: 'contradictory' } });
    expect(d.slipBuilder()).toBeUndefined();
  });
});
