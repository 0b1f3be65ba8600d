import type {
  BuilderCalculateAnswer,
  BuilderCalculateBody,
  BuilderRefusal,
  BuilderSelection,
  BuilderSelectionsAnswer,
  BuilderSelectionsBody,
} from '@bookie/contracts';
import {
  type AddableOdd,
  type BuilderCalculation,
  type BuilderEventInput,
  type BuilderRefusal as CoreRefusal,
  calculateBuilder,
  DomainError,
  format,
  formatOdds,
} from '@bookie/core';
import { signBuilderQuote } from './builder-quote.js';
import type { BetBuilderDeps } from './deps.js';

const refusalOf = (r: CoreRefusal): BuilderRefusal => ({
  reason: r.code,
  message: r.message,
  ...(r.leg !== undefined ? { leg: r.leg } : {}),
});

const selectionOf = (a: AddableOdd): BuilderSelection => ({
  market_id: a.market_id,
  odd_id: a.odd_id,
  label: a.label,
  odds: formatOdds(a.odds),
});

type Priced = { ok: true; value: BuilderCalculation } | { ok: false; refusal: BuilderRefusal };

/** The event as the builder reads it, or a refusal when bets on it are stopped; not_found when it is not in the book. */
function eventFor(deps: BetBuilderDeps, sportEventId: string): BuilderEventInput | BuilderRefusal {
  const e = deps.currentEvent(sportEventId);
  if (!e)
    throw new DomainError('not_found', `no sport event "${sportEventId}"`, { sport_event_id: sportEventId });
  if (e.bet_stop)
    return { reason: 'not_bettable', message: `bets on sport event ${sportEventId} are stopped (bet stop)` };
  return { id: e.id, sport_id: e.fixture.sport_id, markets: e.markets };
}

async function price(
  deps: BetBuilderDeps,
  whiteLabelId: string,
  sportEventId: string,
  legs: BuilderCalculateBody['legs'],
): Promise<Priced> {
  const event = eventFor(deps, sportEventId);
  if ('reason' in event) return { ok: false, refusal: event };
  const model = deps.models.model(event);
  if (!model.ok) return { ok: false, refusal: refusalOf(model.refusal) };
  const r = calculateBuilder(event, legs, await deps.settings(whiteLabelId), model.value);
  return r.ok ? r : { ok: false, refusal: refusalOf(r.refusal) };
}

/**
 * The odds that can start or join a builder on the event, given the legs chosen so far, with the builder's odds once
 * each joins (the white label's margin and most legs). `available` false with the refusal when the event takes no
 * builder (not football, no model, bets stopped) or the chosen legs are refused.
 *
 * @throws DomainError not_found for an event not in the book.
 */
export async function builderSelections(
  deps: BetBuilderDeps,
  whiteLabelId: string,
  body: BuilderSelectionsBody,
): Promise<BuilderSelectionsAnswer> {
  const r = await price(deps, whiteLabelId, body.sport_event_id, body.legs ?? []);
  if (!r.ok) return { available: false, refusal: r.refusal, selections: [] };
  return { available: true, selections: r.value.addable.map(selectionOf) };
}

/**
 * The builder calculator: the combined odds of the legs (core's pricing under the event's model at its price version
 * and the white label's margin), the probabilities, the odds still addable, and a quote of the odds signed for the
 * white label that holds `BUILDER_QUOTE_TTL_S`. Refused: `available` false with the refusal naming the leg.
 *
 * @throws DomainError not_found for an event not in the book.
 */
export async function calculateBuilderQuote(
  deps: BetBuilderDeps,
  whiteLabelId: string,
  body: BuilderCalculateBody,
): Promise<BuilderCalculateAnswer> {
  const r = await price(deps, whiteLabelId, body.sport_event_id, body.legs);
  if (!r.ok) return { available: false, refusal: r.refusal, legs: [], selections: [] };
  const q = r.value.quote;
  if (!q) return { available: false, legs: [], selections: [] };
  const odds = formatOdds(q.odds);
  const expiresAt = deps.clock.now() + deps.quoteTtlMs;
  const quote = signBuilderQuote(await deps.quoteKey(), {
    whiteLabelId,
    sportEventId: body.sport_event_id,
    legs: body.legs,
    odds,
    expiresAt,
  });
  return {
    available: true,
    odds,
    probability: format(q.probability, 12),
    refund_probability: format(q.refundProbability, 12),
    legs: q.legs.map((l) => ({
      market_id: l.market_id,
      odd_id: l.odd_id,
      label: l.label,
      probability: format(l.probability, 12),
    })),
    selections: r.value.addable.map(selectionOf),
    quote,
    expires_at: new Date(expiresAt).toISOString(),
  };
}
