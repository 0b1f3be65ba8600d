import type { MarketInput } from '@bookie/contracts';
import type { BuilderLegRef } from '@bookie/core';

/** A market input for tests: `odds` as [odd id, decimal odds] pairs, each odd templated by its id. */
export const market = (
  id: string,
  typeId: number,
  specifiers: Record<string, string>,
  odds: [string, string][],
): MarketInput => ({
  id,
  type_id: typeId,
  template: `market ${typeId}`,
  specifiers,
  odds: odds.map(([oddId, value]) => ({ id: oddId, value, template: oddId })),
});

/** The football markets a home-and-over builder prices: 1X2 (home 2.10) and total 2.5 (over 1.95). */
export const homeAndOverMarkets = (): MarketInput[] => [
  market('1', 1, {}, [
    ['1', '2.10'],
    ['2', '3.40'],
    ['3', '3.60'],
  ]),
  market('18', 18, { total: '2.5' }, [
    ['12', '1.95'],
    ['13', '1.90'],
  ]),
];

/** The builder legs home win and over 2.5 goals, on {@link homeAndOverMarkets}. */
export const HOME_AND_OVER: BuilderLegRef[] = [
  { market_id: '1', odd_id: '1' },
  { market_id: '18', specifiers: { total: '2.5' }, odd_id: '12' },
];
