/**
 * The wallet replays recorded and random callback sequences, with duplicates and late
 * (out-of-order) retries, over real HTTP; every movement happens exactly once; after every step
 * available + held = deposits − captured + credited − debited; the final balances equal an independent sum.
 */
import { generateSigningSecret } from '@bookie/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BetSpec,
  betSteps,
  centsToWire,
  type Delivery,
  deliverWithRetries,
  interleave,
  LedgerModel,
  type Lifecycle,
  type Step,
} from './testing/replay.js';
import { useTestWallet } from './testing/use-test-wallet.js';

const secret = generateSigningSecret();
const w = useTestWallet({ secret });

let run = 0;

/** Replays deliveries, checking each answer against the model and the ledger invariant after every step. */
async function replay(deliveries: Delivery[], players: string[]): Promise<LedgerModel> {
  const model = new LedgerModel();
  const firstAnswers = new Map<number, { ok: boolean; body: string }>();
  for (const d of deliveries) {
    const step = d.step;
    if (step.kind === 'deposit') {
      model.deposit(step.player, step.cents);
      if (step.cents > 0) await w.api.deposit(step.player, centsToWire(step.cents));
    } else {
      const first = firstAnswers.get(d.logical);
      // Bookie sends nothing more for a bet whose place was refused, and never repeats what it never sent
      if (d.duplicate ? !first : step.name !== 'place' && model.isRejected(step.bet)) continue;
      const answer = await deliverWithRetries(w.url, step, secret);
      const got = { ok: answer.status >= 200 && answer.status < 300, body: answer.body };
      if (d.duplicate) {
        expect(got, `repeat of ${step.name} ${step.bet}`).toEqual(first);
      } else {
        const expected = model.apply(step);
        expect(got, `${step.name} ${step.bet}`).toEqual(
          expected.ok ? { ok: true, body: '' } : { ok: false, body: expected.body },
        );
        firstAnswers.set(d.logical, got);
      }
    }
    // the step changed this player's account only; the others were checked at their own steps
    const check = await w.api.checkLedger(step.player);
    expect(check.ok, JSON.stringify(check.accounts)).toBe(true);
  }
  for (const p of players) expect((await w.api.checkLedger(p)).ok).toBe(true);
  return model;
}

/** The wallet's final balances and ledger rows equal the model's. */
async function expectMatchesModel(model: LedgerModel, players: string[]): Promise<void> {
  for (const p of players) {
    const m = model.balances.get(p) ?? { available: 0, held: 0 };
    expect(await w.api.balance(p), p).toEqual({
      available: centsToWire(m.available),
      held: centsToWire(m.held),
    });
  }
  const rows: string[] = [];
  for (const p of players) {
    for (const e of (await w.api.ledger(p)).entries) {
      rows.push(`${e.bet_id ?? ''}|${e.kind}|${e.reason}|${Number(e.amount.replace('.', '')) / 10_000}`);
    }
  }
  expect(rows.sort()).toEqual([...model.movements].sort());
}

describe('a recorded callback sequence with duplicates and late retries', () => {
  function recorded(tag: string) {
    const A = `A-${tag}`;
    const B = `B-${tag}`;
    const bet = (n: number, player: string, stake: number, life: Lifecycle) =>
      betSteps(`${tag}-b${n}`, player, { player: 0, stake, freebet: false, life });
    const [b1p, b1a, b1s] = bet(1, A, 1000, { type: 'settled', payout: 2500 });
    const [b2p, b2d] = bet(2, A, 3000, { type: 'declined' });
    const [b3p] = bet(3, B, 2500, { type: 'held' }); // B has 20.00: refused
    const [b4p, b4a, b4s, b4i] = bet(4, B, 1500, { type: 'insured', refund: 500 });
    const [b5p, b5a, b5s, b5u, b5s2] = bet(5, A, 500, { type: 'resettled', payout: 900, payout2: 500 });
    const [b6p, b6a, b6c, b6s] = bet(6, A, 800, { type: 'cashed_out', refund: 600, payout: 0 });
    const logical: Step[] = [
      { kind: 'deposit', player: A, cents: 10_000 },
      { kind: 'deposit', player: B, cents: 2_000 },
      ...[b1p, b2p, b1a, b3p, b4p, b2d, b5p, b4a, b1s, b5a, b6p, b4s, b5s, b6a, b4i, b5u, b6c, b5s2, b6s].map(
        (s) => s!,
      ),
    ];
    const deliveries: Delivery[] = logical.map((step, logicalIndex) => ({
      step,
      logical: logicalIndex,
      duplicate: false,
    }));
    const dup = (step: Step | undefined, after: Step | undefined) => {
      const orig = deliveries.find((d) => d.step === step && !d.duplicate)!;
      const at = deliveries.findIndex((d) => d.step === after) + 1;
      deliveries.splice(at, 0, { ...orig, duplicate: true });
    };
    dup(b1p, b1a); // place retried after its accept went through
    dup(b2d, b2d); // decline delivered twice in a row
    dup(b3p, b5p); // a refused place repeated later: same 400
    dup(b1s, b5s2); // settle repeated long after
    dup(b5u, b5s2); // unsettle retry arriving after the next settle: must not debit again
    dup(b4i, b6s); // insurance repeated at the end
    dup(b6c, b6s); // cash-out repeated after the settle
    dup(b5p, b5p);
    return { deliveries, players: [A, B] };
  }

  it('ends with the independently summed balances: A 113.00, B 10.00', async () => {
    const { deliveries, players } = recorded('rec');
    const model = await replay(deliveries, players);
    // independent sum, by hand:
    // A = 100 − 10 + 25 (b1) − 0 (b2 released) − 5 + 9 − 9 + 5 (b5) − 8 + 6 + 0 (b6) = 113
    // B = 20 − 15 + 0 + 5 (b4; b3 refused) = 10
    expect(await w.api.balance(players[0]!)).toEqual({ available: '113.000000', held: '0.000000' });
    expect(await w.api.balance(players[1]!)).toEqual({ available: '10.000000', held: '0.000000' });
    await expectMatchesModel(model, players);
  });

  it('ends the same with lost answers, dropped connections, 500s and 201s injected', async () => {
    const { deliveries, players } = recorded('faulty');
    w.faults.update({
      error500Rate: 0.15,
      lostAnswerRate: 0.2,
      dropRate: 0.15,
      created201Rate: 0.3,
      seed: 7,
    });
    try {
      await replay(deliveries, players);
    } finally {
      w.faults.update({ error500Rate: 0, lostAnswerRate: 0, dropRate: 0, created201Rate: 0 });
    }
    expect(await w.api.balance(players[0]!)).toEqual({ available: '113.000000', held: '0.000000' });
    expect(await w.api.balance(players[1]!)).toEqual({ available: '10.000000', held: '0.000000' });
  });
});

describe('random callback sequences (fast-check)', () => {
  const cents = (max: number) => fc.integer({ min: 0, max });
  const life: fc.Arbitrary<Lifecycle> = fc.oneof(
    fc.constant({ type: 'held' as const }),
    fc.constant({ type: 'declined' as const }),
    fc.constant({ type: 'accepted' as const }),
    cents(10_000).map((payout) => ({ type: 'settled' as const, payout })),
    fc
      .tuple(cents(10_000), cents(10_000))
      .map(([payout, payout2]) => ({ type: 'resettled' as const, payout, payout2 })),
    cents(3_000).map((refund) => ({ type: 'insured' as const, refund })),
    fc
      .tuple(cents(5_000), cents(5_000))
      .map(([refund, payout]) => ({ type: 'cashed_out' as const, refund, payout })),
  );
  const bet: fc.Arbitrary<BetSpec> = fc.record({
    player: fc.nat(2),
    stake: fc.integer({ min: 1, max: 3_000 }),
    freebet: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    life,
  });
  const scenario = fc.record({
    deposits: fc.array(cents(5_000), { minLength: 3, maxLength: 3 }),
    bets: fc.array(bet, { minLength: 1, maxLength: 6 }),
    schedule: fc.array(fc.nat(), { maxLength: 40 }),
    duplicates: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 12 }),
    faulty: fc.boolean(),
  });

  it('moves money exactly once per logical callback and keeps the ledger balanced at every step', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const tag = `r${++run}`;
        const players = [0, 1, 2].map((i) => `${tag}-p${i}`);
        const lists = s.bets.map((b, i) => betSteps(`${tag}-b${i}`, players[b.player]!, b));
        const leading: Step[] = s.deposits.map((c, i) => ({
          kind: 'deposit',
          player: players[i]!,
          cents: c,
        }));
        const deliveries = interleave(lists, s.schedule, s.duplicates, leading);
        if (s.faulty)
          w.faults.update({ lostAnswerRate: 0.2, dropRate: 0.1, error500Rate: 0.1, created201Rate: 0.3 });
        try {
          const model = await replay(deliveries, players);
          await expectMatchesModel(model, players);
        } finally {
          w.faults.update({ lostAnswerRate: 0, dropRate: 0, error500Rate: 0, created201Rate: 0 });
        }
      }),
      { numRuns: 20 },
    );
  }, 120_000); // ~20 × 40 HTTP round trips; generous for a loaded machine
});
