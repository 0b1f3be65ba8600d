import { type BuilderSettings, MAX_BUILDER_LEGS, rational } from '@bookie/core';
import type { BuilderSettingsDeps } from './deps.js';

/** The builder margin of a white label without its own: 0.1 (10 %). */
export const DEFAULT_BUILDER_MARGIN = rational(1n, 10n);

/**
 * A white label's bet builder settings (the bet builder rule; docs/adr/0043-bet-builder-bets.md): its builder margin
 * (a fraction in [0, 1)) and the most legs of a builder. The one place placement, MTS, advisory and the calculator
 * read them: every white label has the default margin {@link DEFAULT_BUILDER_MARGIN} and {@link MAX_BUILDER_LEGS}
 * legs until a white label's own setting is stored.
 */
export async function builderSettings(
  _deps: BuilderSettingsDeps,
  _whiteLabelId: string,
): Promise<BuilderSettings> {
  return { margin: DEFAULT_BUILDER_MARGIN, maxLegs: MAX_BUILDER_LEGS };
}
