import type { BetView, FramePlayerBonus } from '@bookie/contracts';
import type { FrameEventName } from '../types.js';
import { builderSelectionBody } from './builder.js';
import { rootCauseText, t } from './i18n.js';
import { slipCount } from './slip-builders.js';
import type { FrameState, SlipSelection } from './state.js';

/**
 * The bodies of `POST /frame-api/bets` that place the slip: one single per selection (a bet builder counts as one), or
 * one express or system bet; each with its own client key, the slip's stake (a decimal comma read as a point), odds
 * strategy and bonus. A builder goes in `bet_builders`, one selection of the bet at its combined odds.
 */
export function betRequests(
  slip: FrameState['slip'],
  currency: string,
  bonus: FramePlayerBonus | undefined,
): Record<string, unknown>[] {
  const common = {
    stake: slip.stake.trim().replace(',', '.'),
    currency,
    odds_strategy: slip.strategy,
    ...(bonus?.kind === 'freebet' ? { freebet_id: bonus.id } : {}),
    ...(bonus?.kind === 'insurance' ? { insurance_id: bonus.id } : {}),
    ...(bonus?.kind === 'boost' ? { boost_id: bonus.id } : {}),
  };
  const selection = (s: SlipSelection) => ({
    sport_event_id: s.sportEventId,
    market_id: s.marketId,
    odd_id: s.oddId,
    odds: s.odds,
  });
  const key = () => crypto.randomUUID();
  const builders = slip.builders.map(builderSelectionBody);
  return slip.type === 'single'
    ? [
        ...slip.selections.map((s) => ({ selections: [selection(s)] })),
        ...builders.map((b) => ({ selections: [], bet_builders: [b] })),
      ].map((one) => ({ ...common, bet_type: 'single', ...one, client_key: key() }))
    : [
        {
          ...common,
          bet_type: slip.type,
          selections: slip.selections.map(selection),
          ...(builders.length > 0 ? { bet_builders: builders } : {}),
          ...(slip.type === 'system' ? { system_sizes: slip.sizes } : {}),
          client_key: key(),
        },
      ];
}

/**
 * The query of `GET /frame-api/restrictions` that asks the largest stake the slip can place: its type code, currency,
 * odds strategy, system sizes and selections; `undefined` when the slip is no bet yet (empty, several singles, a
 * combination of one, a system without sizes). The look-ahead takes plain odds only: a slip with a builder is decided
 * when placed.
 */
export function maxBetQuery(slip: FrameState['slip'], currency: string): URLSearchParams | undefined {
  const n = slip.selections.length;
  const type = slip.type === 'single' ? (n === 1 ? '0' : undefined) : slip.type === 'express' ? '1' : '2';
  if (
    slip.builders.length > 0 ||
    n === 0 ||
    type === undefined ||
    (type !== '0' && n < 2) ||
    (type === '2' && slip.sizes.length === 0)
  )
    return undefined;
  const q = new URLSearchParams({
    type_code: type,
    currency_code: currency,
    odds_strategy: String(slip.strategy),
  });
  if (type === '2') q.set('system_sizes', slip.sizes.join(','));
  for (const x of slip.selections)
    q.append('selection', [x.sportEventId, x.marketId, x.oddId, x.odds].map(encodeURIComponent).join('/'));
  return q;
}

/** What placing the slip needs of the frame store. */
export interface PlacementHost {
  readonly state: FrameState;
  set(patch: Partial<FrameState>): void;
  call<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  emit(event: FrameEventName, payload: unknown): void;
  say(text: string): void;
  loadBonuses(): Promise<void>;
}

/**
 * Places the slip (see {@link betRequests}), one request after another; tells the host of each accepted bet and of the
 * balance, puts the bets in the history, empties the slip when every bet is accepted (a declined one leaves it for the
 * player to change and try again), and announces the outcome to screen readers.
 */
export async function placeSlip(host: PlacementHost): Promise<void> {
  const { slip, currency } = host.state;
  if (slipCount(slip) === 0 || host.state.placing) return;
  host.set({ placing: true, result: undefined });
  const bonus = host.state.bonuses.find((b) => b.id === slip.bonusId);
  const requests = betRequests(slip, currency, bonus);
  try {
    const bets: BetView[] = [];
    for (const body of requests)
      bets.push(await host.call<BetView>('/frame-api/bets', { method: 'POST', body }));
    const accepted = bets.filter((b) => b.status === 1);
    for (const b of accepted) host.emit('bet_placed', b);
    if (accepted.length > 0) host.emit('balance_changed', {});
    host.set({
      placing: false,
      result: { bets },
      history: [...bets, ...host.state.history.filter((h) => !bets.some((b) => b.id === h.id))],
      // accepted: the slip empties; declined: the player can change it and try again
      ...(accepted.length === bets.length
        ? { slip: { ...slip, selections: [], builders: [], stake: '', bonusId: '' } }
        : {}),
    });
    if (bonus) void host.loadBonuses().catch(() => {});
    const declined = bets.find((b) => b.status !== 1);
    host.say(
      declined
        ? `${t(host.state.locale, 'result.declined')}: ${rootCauseText(host.state.locale, declined)}`
        : t(host.state.locale, 'announce.accepted', { n: bets.length }),
    );
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    host.set({ placing: false, result: { error: message } });
    host.say(t(host.state.locale, 'result.error', { message }));
  }
}
