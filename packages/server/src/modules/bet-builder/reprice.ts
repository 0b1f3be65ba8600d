import type { SportEvent } from '@bookie/contracts';
import {
  type BuilderEventInput,
  type BuilderLegRef,
  type BuilderModel,
  type BuilderQuote,
  type BuilderResult,
  type BuilderSettings,
  builderModel,
  priceBuilder,
} from '@bookie/core';

/** A feed snapshot as the builder reads it: its id, the fixture's sport and its markets. */
export function builderEventOf(event: SportEvent): BuilderEventInput {
  return { id: event.id, sport_id: event.fixture.sport_id, markets: event.markets };
}

/** The fitted models of the last events priced, by event id and snapshot time (a fit is tens of milliseconds). */
const models = new Map<string, BuilderResult<BuilderModel>>();
const MAX_MODELS = 256;

/** The event's score model for this snapshot, fitted once per snapshot. */
export function modelOf(event: SportEvent): BuilderResult<BuilderModel> {
  const key = `${event.id}@${event.updated_at}`;
  const known = models.get(key);
  if (known) return known;
  const fitted = builderModel(builderEventOf(event));
  if (models.size >= MAX_MODELS) models.clear();
  models.set(key, fitted);
  return fitted;
}

/**
 * A builder's price now: its legs priced by core's `priceBuilder` on the event's current snapshot, with its fitted
 * score model and the white label's builder settings; a refusal names the leg.
 */
export function repriceBuilder(
  event: SportEvent,
  legs: readonly BuilderLegRef[],
  settings: BuilderSettings,
): BuilderResult<BuilderQuote> {
  const model = modelOf(event);
  if (!model.ok) return model;
  return priceBuilder(builderEventOf(event), model.value, legs, settings);
}
