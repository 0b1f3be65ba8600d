import { BuilderDesk } from './builder.js';
import { t } from './i18n.js';
import type { FrameState } from './state.js';

/** What the slip's bet builders need of the frame store: its state, its changes, the frame API and the live region. */
export interface SlipBuildersHost {
  readonly state: FrameState;
  set(patch: Partial<FrameState>): void;
  setSlip(patch: Partial<FrameState['slip']>): void;
  call<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  say(text: string): void;
}

/** The bet builder desk of the event page, asking the frame API and redrawing the frame after every answer. */
export function builderDeskOf(host: SlipBuildersHost): BuilderDesk {
  return new BuilderDesk({
    call: <T>(path: string, init?: { method?: string; body?: unknown }) => host.call<T>(path, init),
    event: (id) => host.state.events[id],
    changed: () => host.set({}),
  });
}

/** Adds the builder being built on `desk` to the slip as one selection, and starts a new one on the same event. */
export function addBuilderToSlip(host: SlipBuildersHost, desk: BuilderDesk): void {
  const b = desk.slipBuilder();
  if (!b) return;
  host.setSlip({ builders: [...host.state.slip.builders, b] });
  desk.clear();
  host.say(t(host.state.locale, 'builder.added'));
}

/** How many selections the slip holds: plain odds and builders, one each. */
export function slipCount(slip: FrameState['slip']): number {
  return slip.selections.length + slip.builders.length;
}
