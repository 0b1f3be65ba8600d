/**
 * The bet builder's API (docs/adr/0045-bet-builder-api.md): the white label's builder settings, the events' fitted
 * models cached per price version, the calculator, the signed builder quotes placement checks, and the repricing of
 * a builder on an event's current snapshot, which placement, MTS and advisory decide on.
 */
export {
  type BuilderQuoteClaim,
  type BuilderQuoteProblem,
  type BuilderQuoteTerms,
  readBuilderQuote,
  signBuilderQuote,
  verifyBuilderQuote,
} from './builder-quote.js';
export { builderSelections, calculateBuilderQuote } from './calculate-builder.js';
export type { BetBuilderDeps, BuilderSettingsDeps } from './deps.js';
export { BuilderModelCache, type EventChanges, EventVersions } from './model-cache.js';
export { builderEventOf, modelOf, repriceBuilder } from './reprice.js';
export {
  builderSettings,
  builderSettingsView,
  cachedBuilderSettings,
  DEFAULT_BUILDER_MARGIN,
  DEFAULT_BUILDER_MAX_LEGS,
  setBuilderSettings,
} from './settings.js';
