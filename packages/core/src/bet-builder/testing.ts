/**
 * Test fixtures of the bet builder: a football sport event carrying every market kind the builder knows (and some
 * it refuses), and a model of known parameters. Test support only (not exported from the package index).
 *
 * @packageDocumentation
 */
import type { BuilderEventInput, BuilderMarketInput, BuilderModel } from './builder.js';
import { type ScoreModelParams, scoreMatrix } from './score-model.js';

const open = (value: string) => ({ value, status: 0, is_active: true });

function market(
  type_id: number,
  specifiers: Record<string, string>,
  odds: Record<string, string>,
): BuilderMarketInput {
  return {
    type_id,
    status: 0,
    specifiers,
    odds: Object.fromEntries(Object.entries(odds).map(([k, v]) => [k, open(v)])),
  };
}

/** Markets of the fixture event, keyed by market id. */
export const FIXTURE_MARKETS: Record<string, BuilderMarketInput> = {
  '1': market(1, {}, { '1': '2.10', '2': '3.40', '3': '3.60' }),
  '10': market(10, {}, { '9': '1.30', '10': '1.35', '11': '1.70' }),
  '11': market(11, {}, { '4': '1.50', '5': '2.60' }),
  '14:hcp=0:1': market(14, { hcp: '0:1' }, { '1711': '3.80', '1712': '3.90', '1713': '1.85' }),
  '16:hcp=-0.25': market(16, { hcp: '-0.25' }, { '1714': '1.85', '1715': '2.00' }),
  '16:hcp=-1': market(16, { hcp: '-1' }, { '1714': '3.00', '1715': '1.40' }),
  '18:total=1.5': market(18, { total: '1.5' }, { '12': '1.26', '13': '3.88' }),
  '18:total=2.5': market(18, { total: '2.5' }, { '12': '1.95', '13': '1.90' }),
  '18:total=3': market(18, { total: '3' }, { '12': '2.50', '13': '1.50' }),
  '19:total=1.5': market(19, { total: '1.5' }, { '12': '2.30', '13': '1.60' }),
  '20:total=0.5': market(20, { total: '0.5' }, { '12': '1.45', '13': '2.75' }),
  '20:total=5.5': market(20, { total: '5.5' }, { '12': '50.00', '13': '1.001' }),
  '29': market(29, {}, { '74': '1.80', '76': '2.00' }),
  '45': market(45, {}, { '0:0': '11.00', '1:0': '8.00', '1:1': '6.50', '2:1': '9.00', '9:9': '1000.00' }),
  '99': market(99, {}, { '1': '1.90', '2': '1.90' }),
};

/** The fixture sport event (football). */
export const FIXTURE_EVENT: BuilderEventInput = {
  id: 'event-1',
  sport_id: 'football',
  markets: FIXTURE_MARKETS,
};

/** A model of the fixture event with chosen parameters instead of fitted ones. */
export function modelWith(params: ScoreModelParams, eventId = FIXTURE_EVENT.id): BuilderModel {
  return {
    eventId,
    matrix: scoreMatrix(params),
    fit: { params, targets: [], maxError: 0, kind: params.rho === 0 ? 'poisson' : 'dixon_coles' },
  };
}
