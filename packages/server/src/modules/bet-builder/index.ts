/**
 * The bet builder module's public surface: a white label's builder settings ({@link builderSettings}) and the
 * repricing of a builder on an event's current snapshot, which placement, MTS and advisory decide on.
 */
export type { BuilderSettingsDeps } from './deps.js';
export { builderEventOf, modelOf, repriceBuilder } from './reprice.js';
export { builderSettings, DEFAULT_BUILDER_MARGIN } from './settings.js';
