import type { CreateSportEventBody, Market, MarketInput, SportEvent } from '@bookie/contracts';

/** Turns a command's market (odds as a list, optional fields) into the snapshot form (spec 02 "Market"). */
export function toMarket(m: MarketInput): Market {
  const odds: Market['odds'] = {};
  for (const o of m.odds) {
    odds[o.id] = {
      id: o.id,
      value: o.value,
      status: o.status ?? 0,
      template: o.template ?? '',
      is_active: o.is_active ?? true,
    };
  }
  return {
    id: m.id,
    odds,
    status: m.status ?? 0,
    type_id: m.type_id,
    template: m.template ?? '',
    specifiers: m.specifiers ?? {},
  };
}

/** Builds a new event's snapshot from the create command (spec 02 "Sport event snapshot"). */
export function buildSnapshot(body: CreateSportEventBody, id: string, updatedAt: string): SportEvent {
  const f = body.fixture;
  const markets: SportEvent['markets'] = {};
  for (const m of body.markets ?? []) markets[m.id] = toMarket(m);
  const event: SportEvent = {
    id,
    meta: body.meta ?? {},
    fixture: {
      id: f.id ?? id,
      meta: f.meta ?? {},
      type: f.type,
      status: f.status ?? 0,
      streams: f.streams ?? {},
      ...(f.version !== undefined ? { version: f.version } : {}),
      sport_id: f.sport_id,
      template: f.template,
      start_time: f.start_time,
      tournament: f.tournament,
      updated_at: updatedAt,
      competitors: f.competitors,
      live_coverage: f.live_coverage ?? false,
    },
    markets,
    bet_stop: body.bet_stop ?? false,
    ...(body.extensions !== undefined ? { extensions: body.extensions } : {}),
    ...(body.sources !== undefined ? { sources: body.sources } : {}),
    updated_at: updatedAt,
  };
  return event;
}
