/**
 * The risk engine in a replay (docs/adr/0018-risk-engine.md): the liability limits a replay configures, and what the
 * report shows of them — per market, the largest exposure an outcome reached, the bets declined `max_bet` and the
 * odds shading lowered; the
 * players' risk scores by bettor profile (sharp players beat the closing line more often).
 *
 * @packageDocumentation
 */
import type { Dispatcher } from 'undici';
import type { Bettor } from './bettors.js';
import { callJson } from './clients.js';
import type { MarketKind } from './football-data.js';
import { marketKindOf } from './markets.js';
import type { BetOutcome } from './outcomes.js';

/** The risk section of a replay report. */
export interface RiskReport {
  /** The liability limit per outcome configured for the run, EUR (prematch and live). */
  limit_eur: string;
  /** Per market kind: the largest exposure one outcome reached, EUR. */
  largest_exposure_eur: Record<string, string>;
  /** Per market kind: bets declined `max_bet` with a leg in it. */
  max_bet_declines: Record<string, number>;
  /** Per market kind: outcomes whose published odds shading lowered, and how many lowered prices it published. */
  odds_shaded: Record<string, { outcomes: number; publications: number }>;
  /** Mean risk score by bettor profile (D40), 6 decimals, and how many players. */
  mean_score_by_profile: Record<string, { players: number; mean_score: string }>;
}

/** Sets the white label's liability limit per outcome, prematch and live (`PUT /admin/risk/limits`). */
export async function configureRiskLimits(
  dispatcher: Dispatcher,
  baseUrl: string,
  adminToken: string,
  whiteLabelId: string,
  liabilityEur: string,
): Promise<void> {
  for (const phase of ['prematch', 'live']) {
    await callJson(dispatcher, 'PUT', `${baseUrl}/admin/risk/limits`, {
      token: adminToken,
      body: { white_label_id: whiteLabelId, market_type_id: '*', phase, liability_eur: liabilityEur },
    });
  }
}

/** Builds the risk section after the run from Bookie's exposure and players' risk. */
export async function collectRiskReport(input: {
  dispatcher: Dispatcher;
  baseUrl: string;
  adminToken: string;
  partnerToken: string;
  whiteLabelId: string;
  limitEur: string;
  outcomes: readonly BetOutcome[];
  population: readonly Bettor[];
  /** Market type id of each market id, from the season script. */
  marketTypeOf: (sportEventId: string, marketId: string) => number | undefined;
}): Promise<RiskReport> {
  const exposure = await callJson<{ items: Array<{ market_type_id: string; max_exposure_eur: string }> }>(
    input.dispatcher,
    'GET',
    `${input.baseUrl}/admin/risk/exposure?white_label_id=${encodeURIComponent(input.whiteLabelId)}&limit=10000`,
    { token: input.adminToken },
  );
  const largest: Record<string, string> = {};
  for (const e of exposure.items) {
    const kind = marketKindOf(Number(e.market_type_id)) ?? e.market_type_id;
    const prev = largest[kind];
    // decimal strings with 6 decimals: compare by length, then lexically
    if (
      prev === undefined ||
      e.max_exposure_eur.length > prev.length ||
      (e.max_exposure_eur.length === prev.length && e.max_exposure_eur > prev)
    ) {
      largest[kind] = e.max_exposure_eur;
    }
  }
  const shading = await callJson<{ items: Array<{ market_type_id: string; publications: number }> }>(
    input.dispatcher,
    'GET',
    `${input.baseUrl}/admin/risk/shading?limit=10000`,
    { token: input.adminToken },
  );
  const shaded: RiskReport['odds_shaded'] = {};
  for (const h of shading.items) {
    const kind = marketKindOf(Number(h.market_type_id)) ?? h.market_type_id;
    const acc = shaded[kind] ?? { outcomes: 0, publications: 0 };
    acc.outcomes++;
    acc.publications += h.publications;
    shaded[kind] = acc;
  }
  const declines: Record<string, number> = {};
  for (const o of input.outcomes) {
    if (!o.answer?.restrictions.some((r) => r.type === 'max_bet')) continue;
    const kinds = new Set<MarketKind | string>();
    for (const s of o.answer.selections) {
      const t = input.marketTypeOf(s.sport_event_id, s.market_id);
      kinds.add((t !== undefined ? marketKindOf(t) : undefined) ?? 'other');
    }
    for (const k of kinds) declines[k] = (declines[k] ?? 0) + 1;
  }
  const scores: Record<string, { players: number; micros: bigint }> = {};
  for (const b of input.population) {
    const r = await callJson<{ score: string }>(
      input.dispatcher,
      'GET',
      `${input.baseUrl}/players/${encodeURIComponent(b.id)}/risk`,
      { token: input.partnerToken },
    );
    const [i = '0', f = ''] = r.score.split('.');
    const micros = BigInt(i) * 1_000_000n + BigInt(f.padEnd(6, '0').slice(0, 6));
    const acc = scores[b.kind] ?? { players: 0, micros: 0n };
    acc.players++;
    acc.micros += micros;
    scores[b.kind] = acc;
  }
  const mean: RiskReport['mean_score_by_profile'] = {};
  for (const [kind, s] of Object.entries(scores)) {
    const m = s.micros / BigInt(s.players);
    mean[kind] = {
      players: s.players,
      mean_score: `${m / 1_000_000n}.${String(m % 1_000_000n).padStart(6, '0')}`,
    };
  }
  return {
    limit_eur: input.limitEur,
    largest_exposure_eur: largest,
    max_bet_declines: declines,
    odds_shaded: shaded,
    mean_score_by_profile: mean,
  };
}

/** The risk section as report lines. */
export function formatRiskReport(r: RiskReport): string[] {
  const kinds = [
    ...new Set([
      ...Object.keys(r.largest_exposure_eur),
      ...Object.keys(r.max_bet_declines),
      ...Object.keys(r.odds_shaded),
    ]),
  ].sort();
  return [
    `Risk: liability limit ${r.limit_eur} EUR per outcome`,
    ...kinds.map(
      (k) =>
        `  ${k.padEnd(16)} largest exposure ${(r.largest_exposure_eur[k] ?? '0.000000').padStart(14)} EUR, ` +
        `${r.max_bet_declines[k] ?? 0} bets declined max_bet, ` +
        `${r.odds_shaded[k]?.outcomes ?? 0} outcomes shaded (${r.odds_shaded[k]?.publications ?? 0} prices)`,
    ),
    `  mean risk score: ${Object.entries(r.mean_score_by_profile)
      .map(([k, v]) => `${k} ${v.mean_score} (${v.players})`)
      .join(', ')}`,
  ];
}
