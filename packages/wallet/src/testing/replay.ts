/**
 * Replaying callback sequences against a wallet, for tests: a reference model of the expected ledger (written apart
 * from the wallet's code: plain bigint sums over the logical callbacks, each counted once), scenario generation with
 * per-bet order kept (D10) plus duplicates and late retries, and delivery with Bookie-like retries on 5xx and dropped
 * connections.
 *
 * @packageDocumentation
 */
import type { CallbackBodies, IdempotentCallbackName } from '@bookie/contracts';
import {
  acceptBody,
  cashOutAcceptedBody,
  declineBody,
  insuranceAcceptedBody,
  placeBody,
  settleBody,
  unsettleBody,
} from '@bookie/sdk/callbacks/fixtures';
import { type CallbackAnswer, sendCallback } from './send-callback.js';

/**
 * Amounts in the model are integer cents; the wire wants 6 decimals. A negative amount (a balance an unsettle took
 * below zero) keeps its sign in front: -1 → `"-0.010000"`.
 */
export function centsToWire(cents: number): string {
  const s = BigInt(cents);
  const abs = s < 0n ? -s : s;
  return `${s < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}0000`;
}

/** One logical step of a scenario: a deposit, or one logical callback (one request_id). */
export type Step =
  | { kind: 'deposit'; player: string; cents: number }
  | {
      kind: 'callback';
      name: IdempotentCallbackName;
      bet: string;
      player: string;
      body: CallbackBodies[IdempotentCallbackName];
    };

/** What the model expects a callback's (final) answer to be. */
export type Expected = { ok: true } | { ok: false; body: string };

interface ModelBet {
  player: string;
  stake: number;
  state: 'held' | 'accepted' | 'declined' | 'settled' | 'unsettled' | 'rejected';
}

/** The expected ledger: balances and the multiset of movements, from logical callbacks each applied once. */
export class LedgerModel {
  readonly balances = new Map<string, { available: number; held: number }>();
  readonly bets = new Map<string, ModelBet>();
  /** Expected ledger rows, as `bet|kind|reason|cents`. */
  readonly movements: string[] = [];

  #acct(player: string) {
    let a = this.balances.get(player);
    if (!a) {
      a = { available: 0, held: 0 };
      this.balances.set(player, a);
    }
    return a;
  }

  #move(player: string, bet: string, kind: string, reason: string, cents: number) {
    if (cents === 0) return;
    const a = this.#acct(player);
    if (kind === 'hold') [a.available, a.held] = [a.available - cents, a.held + cents];
    if (kind === 'release') [a.available, a.held] = [a.available + cents, a.held - cents];
    if (kind === 'capture') a.held -= cents;
    if (kind === 'credit') a.available += cents;
    if (kind === 'debit') a.available -= cents;
    this.movements.push(`${bet}|${kind}|${reason}|${cents}`);
  }

  deposit(player: string, cents: number): void {
    if (cents === 0) return;
    this.#acct(player).available += cents;
    this.movements.push(`|deposit|deposit|${cents}`);
  }

  /** True when the bet's place was refused: Bookie sends nothing more for it. */
  isRejected(bet: string): boolean {
    return this.bets.get(bet)?.state === 'rejected';
  }

  /** Applies one logical callback (the generator only emits Bookie's normal flows). */
  apply(step: Extract<Step, { kind: 'callback' }>): Expected {
    const { name, bet, player } = step;
    const b = step.body as unknown as Record<string, string>;
    const cents = (wire: string) => Number(wire.replace('.', '')) / 10_000;
    switch (name) {
      case 'place': {
        const stake = b.bet_freebet_id ? 0 : cents(b.bet_stake!);
        const a = this.#acct(player);
        if (a.available < stake) {
          this.bets.set(bet, { player, stake, state: 'rejected' });
          const actual = centsToWire(Math.max(0, a.available));
          return {
            ok: false,
            body: `{"error":{"code":"not_enough_balance","data":{"actual_balance":"${actual}"}}}`,
          };
        }
        this.bets.set(bet, { player, stake, state: 'held' });
        this.#move(player, bet, 'hold', 'place', stake);
        return { ok: true };
      }
      case 'accept': {
        const x = this.bets.get(bet)!;
        x.state = 'accepted';
        this.#move(player, bet, 'capture', 'accept', x.stake);
        return { ok: true };
      }
      case 'decline': {
        const x = this.bets.get(bet)!;
        x.state = 'declined';
        this.#move(player, bet, 'release', 'decline', x.stake);
        return { ok: true };
      }
      case 'settle':
        this.bets.get(bet)!.state = 'settled';
        this.#move(player, bet, 'credit', 'settle', cents(b.settle_amount!));
        return { ok: true };
      case 'unsettle':
        this.bets.get(bet)!.state = 'unsettled';
        this.#move(player, bet, 'debit', 'unsettle', cents(b.unsettle_amount!));
        return { ok: true };
      case 'insuranceAccepted':
        this.#move(player, bet, 'credit', 'insurance', cents(b.refund_amount!));
        return { ok: true };
      case 'insuranceCancel':
        this.#move(player, bet, 'debit', 'insurance_cancel', cents(b.refund_amount!));
        return { ok: true };
      case 'cashOutAccepted':
        this.#move(player, bet, 'credit', 'cash_out', cents(b.refund_amount!));
        return { ok: true };
      default:
        return { ok: true };
    }
  }
}

/** A bet's life as the generator describes it: the callbacks Bookie sends, in order. */
export type Lifecycle =
  | { type: 'held' }
  | { type: 'declined' }
  | { type: 'accepted' }
  | { type: 'settled'; payout: number }
  | { type: 'resettled'; payout: number; payout2: number }
  | { type: 'insured'; refund: number }
  | { type: 'cashed_out'; refund: number; payout: number };

/** A bet of a scenario. */
export interface BetSpec {
  player: number;
  stake: number;
  freebet: boolean;
  life: Lifecycle;
}

/** The logical callbacks of one bet, in Bookie's order (D10). */
export function betSteps(id: string, player: string, spec: BetSpec): Step[] {
  const ref = { bet_id: id, bet_player_id: player };
  const stake = centsToWire(spec.stake);
  const freebet = spec.freebet ? { bet_freebet_id: `fb-${id}` } : {};
  const cb = (name: IdempotentCallbackName, body: unknown): Step => ({
    kind: 'callback',
    name,
    bet: id,
    player,
    body: body as CallbackBodies[IdempotentCallbackName],
  });
  const steps = [cb('place', placeBody({ ...ref, bet_stake: stake, ...freebet }))];
  const accept = () => cb('accept', acceptBody({ ...ref, bet_stake: stake, ...freebet }));
  const settle = (p: number) =>
    cb(
      'settle',
      settleBody({
        ...ref,
        settle_amount: centsToWire(p),
        settle_type: p > spec.stake ? 1 : p === spec.stake ? 2 : 3,
      }),
    );
  const l = spec.life;
  if (l.type === 'declined') steps.push(cb('decline', declineBody(ref)));
  if (l.type === 'accepted') steps.push(accept());
  if (l.type === 'settled') steps.push(accept(), settle(l.payout));
  if (l.type === 'resettled') {
    steps.push(
      accept(),
      settle(l.payout),
      cb('unsettle', unsettleBody({ ...ref, unsettle_amount: centsToWire(l.payout) })),
      settle(l.payout2),
    );
  }
  if (l.type === 'insured') {
    steps.push(
      accept(),
      settle(0),
      cb(
        'insuranceAccepted',
        insuranceAcceptedBody({
          bet_id: id,
          bet_insurance_id: `ins-${id}`,
          refund_amount: centsToWire(l.refund),
        }),
      ),
    );
  }
  if (l.type === 'cashed_out') {
    steps.push(
      accept(),
      cb(
        'cashOutAccepted',
        cashOutAcceptedBody({
          bet_id: id,
          cash_out_order_id: `co-${id}`,
          amount: stake,
          refund_amount: centsToWire(l.refund),
        }),
      ),
      settle(l.payout),
    );
  }
  return steps;
}

/** One delivery of a replay: a step, first or repeated. */
export interface Delivery {
  step: Step;
  /** Index of the logical step (shared by its duplicates). */
  logical: number;
  duplicate: boolean;
}

/**
 * Interleaves per-bet step lists (keeping each bet's order) by `schedule`, then inserts duplicates: each
 * `[which, offset]` copies delivery `which` to a later position (a retry arriving late, out of order).
 */
export function interleave(
  lists: Step[][],
  schedule: readonly number[],
  duplicates: readonly [number, number][],
  leading: Step[] = [],
): Delivery[] {
  const queues = lists.map((l) => [...l]);
  const out: Delivery[] = leading.map((step, i) => ({ step, logical: i, duplicate: false }));
  let logical = out.length;
  let k = 0;
  for (;;) {
    const live = queues.filter((q) => q.length > 0);
    if (live.length === 0) break;
    const q = live[(schedule[k++] ?? k) % live.length]!;
    out.push({ step: q.shift()!, logical: logical++, duplicate: false });
  }
  for (const [which, offset] of duplicates) {
    const firsts = out.filter((d) => !d.duplicate && d.step.kind === 'callback');
    if (firsts.length === 0) break;
    const orig = firsts[which % firsts.length]!;
    const pos = out.indexOf(orig);
    const at = pos + 1 + (offset % (out.length - pos));
    out.splice(at, 0, { ...orig, duplicate: true });
  }
  return out;
}

/**
 * Delivers a callback as Bookie does: repeats it (same request_id, same bytes) while the answer is a 5xx or the
 * connection drops; resolves to the first other answer.
 */
export async function deliverWithRetries(
  baseUrl: string,
  step: Extract<Step, { kind: 'callback' }>,
  secret: string | undefined,
  maxAttempts = 30,
): Promise<CallbackAnswer & { attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const a = await sendCallback(baseUrl, step.name, step.body, { secret });
      if (a.status < 500 || attempt >= maxAttempts) return { ...a, attempts: attempt };
    } catch (err) {
      if (attempt >= maxAttempts) throw err;
    }
  }
}
