import { readFileSync } from 'node:fs';
import { FIXTURE_STATUS, isDomainError, MARKET_STATUS, ODD_STATUS } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import {
  BetfairMarketTracker,
  type McmMessage,
  oddsStreamScript,
  parseMcmLine,
  parseMcmText,
  probabilitiesOf,
  readMcmFile,
  showsState,
} from './odds-stream.js';
import { betStepIndex } from './odds-stream-run.js';
import { dataFile } from './testing.js';

const EXCERPT = dataFile('betfair-1.200806927-cricket-match-odds.jsonl');

/** A market definition line: status, in play, runners as [id, status]. */
const def = (pt: number, status: string, inPlay: boolean, runners: [number, string][], extra = '') =>
  `{"op":"mcm","pt":${pt},"mc":[{"id":"1.5","marketDefinition":{"status":"${status}","inPlay":${inPlay},` +
  `"eventTypeId":"4","marketTime":"2022-07-11T11:00:00.000Z","runners":[${runners
    .map(([id, s], i) => `{"status":"${s}","sortPriority":${i + 1},"id":${id}}`)
    .join(',')}]${extra}}}]}`;
/** A price line: runner id → ltp source text. */
const ltp = (pt: number, prices: Record<string, string>) =>
  `{"op":"mcm","pt":${pt},"mc":[{"id":"1.5","rc":[${Object.entries(prices)
    .map(([id, p]) => `{"ltp":${p},"id":${id}}`)
    .join(',')}]}]}`;

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(isDomainError(err, 'validation_error')).toBe(true);
    return (err as Error).message;
  }
  throw new Error('expected a validation error');
}

describe('parseMcmLine', () => {
  it('keeps prices and sizes as Betfair wrote them, where JSON.parse would round them through floats', () => {
    const text =
      '{"op":"mcm","clk":"AOq7","pt":1657018212979,"mc":[{"id":"1.200806927","rc":[{"atb":[[1000,0.50],' +
      '[1.01,123456789012345678.25]],"batb":[[0,4.10,2]],"ltp":4.10,"id":228749}]}]}';
    const m = parseMcmLine(text, 7)!;
    expect(m).toEqual({
      line: 7,
      pt: 1657018212979,
      markets: [
        {
          id: '1.200806927',
          img: false,
          runners: [
            {
              id: '228749',
              ltp: '4.10',
              atb: [
                ['1000', '0.50'],
                ['1.01', '123456789012345678.25'],
              ],
              batb: [['0', '4.10', '2']],
            },
          ],
        },
      ],
    });
    // what the float route would have given
    const floats = JSON.parse(text).mc[0].rc[0];
    expect(String(floats.ltp)).toBe('4.1');
    expect(String(floats.atb[1][1])).not.toBe('123456789012345678.25');
  });

  it('reads a market definition: status, in play, runners with status and order, ids as text', () => {
    const m = parseMcmLine(
      def(5, 'CLOSED', true, [
        [228749, 'WINNER'],
        [2857977, 'LOSER'],
      ]),
      1,
    )!;
    expect(m.markets[0]!.definition).toEqual({
      status: 'CLOSED',
      inPlay: true,
      eventTypeId: '4',
      marketTime: '2022-07-11T11:00:00.000Z',
      runners: [
        { id: '228749', status: 'WINNER', sortPriority: 1 },
        { id: '2857977', status: 'LOSER', sortPriority: 2 },
      ],
    });
  });

  it('skips blank lines and messages that are not market changes', () => {
    expect(parseMcmLine('   ', 1)).toBeUndefined();
    expect(parseMcmLine('{"op":"status","id":1,"statusCode":"SUCCESS"}', 2)).toBeUndefined();
  });

  it('refuses bad input naming the line and the field', () => {
    expect(failure(() => parseMcmLine('{"op":"mcm","pt":1,"mc":[', 3))).toMatch(/^line 3.*not valid JSON/);
    expect(failure(() => parseMcmLine(ltp(1, { 5: '"1.5"' }), 4))).toContain('line 4 mc[0].rc[0].ltp');
    expect(failure(() => parseMcmLine(ltp(1, { 5: '0.5' }), 5))).toMatch(
      /line 5 mc\[0\]\.rc\[0\]\.ltp.*above 1/,
    );
    expect(failure(() => parseMcmLine(ltp(1, { 5: '1e3' }), 6))).toMatch(/plain decimal notation, got 1e3/);
    expect(failure(() => parseMcmLine('{"op":"mcm","pt":1.5,"mc":[]}', 7))).toContain('line 7 pt');
    expect(
      failure(() =>
        parseMcmLine(def(1, 'OPEN', true, [[5, 'ACTIVE']]).replace('"inPlay":true', '"inPlay":1'), 8),
      ),
    ).toContain('line 8 mc[0].marketDefinition.inPlay');
  });
});

describe('BetfairMarketTracker', () => {
  const msg = (text: string, line = 1) => parseMcmLine(text, line)!;

  it('prices a runner by its last traded price, else its best price available to back; a size of 0 removes a price', () => {
    const t = new BetfairMarketTracker();
    t.apply(
      msg(
        def(1, 'OPEN', false, [
          [1, 'ACTIVE'],
          [2, 'ACTIVE'],
        ]),
      ),
    );
    expect(t.view()!.runners.map((r) => r.price)).toEqual([undefined, undefined]);
    t.apply(
      msg('{"op":"mcm","pt":2,"mc":[{"id":"1.5","rc":[{"atb":[[2.5,10],[2.52,3],[2.48,1]],"id":1}]}]}'),
    );
    expect(t.view()!.runners[0]).toMatchObject({ price: '2.52', source: 'back' });
    t.apply(msg('{"op":"mcm","pt":3,"mc":[{"id":"1.5","rc":[{"atb":[[2.52,0]],"id":1}]}]}'));
    expect(t.view()!.runners[0]).toMatchObject({ price: '2.5', source: 'back' });
    t.apply(msg('{"op":"mcm","pt":4,"mc":[{"id":"1.5","rc":[{"batb":[[0,2.44,5]],"id":2}]}]}'));
    expect(t.view()!.runners[1]).toMatchObject({ price: '2.44', source: 'back' });
    t.apply(msg(ltp(5, { 1: '2.6' })));
    expect(t.view()!.runners[0]).toMatchObject({ price: '2.6', source: 'ltp' });
    // a full image replaces the ladders
    t.apply(msg('{"op":"mcm","pt":6,"mc":[{"id":"1.5","img":true,"rc":[{"atb":[[3,1]],"id":2}]}]}'));
    expect(t.view()!.runners.map((r) => r.price)).toEqual(['2.6', '3']);
  });

  it('follows one market and ignores the others', () => {
    const t = new BetfairMarketTracker('1.5');
    expect(t.apply(msg(ltp(1, { 1: '2' }).replace('"1.5"', '"1.9"')))).toBe(false);
    expect(t.view()).toBeUndefined();
    expect(t.apply(msg(def(1, 'SUSPENDED', false, [[1, 'ACTIVE']])))).toBe(true);
    expect(t.view()).toMatchObject({ marketId: '1.5', status: 'SUSPENDED', inPlay: false });
  });
});

describe('oddsStreamScript', () => {
  const two: [number, string][] = [
    [11, 'ACTIVE'],
    [22, 'ACTIVE'],
  ];
  const messages = (lines: string[]): McmMessage[] => parseMcmText(lines.join('\n'));

  it('creates the event once both runners have a price, then publishes changes, suspends, goes live and results by the WINNER', () => {
    const s = oddsStreamScript(
      messages([
        def(1, 'OPEN', false, two),
        ltp(2, { 11: '1.5' }), // one price only: nothing yet
        ltp(3, { 22: '3.1' }),
        ltp(4, { 11: '1.5' }), // the same price again: nothing
        ltp(5, { 11: '1.45' }),
        def(6, 'SUSPENDED', false, two),
        def(7, 'OPEN', true, two),
        ltp(8, { 22: '3.25' }),
        def(9, 'CLOSED', true, [
          [11, 'WINNER'],
          [22, 'LOSER'],
        ]),
        ltp(10, { 11: '1.01' }), // nothing after the close is read
      ]),
    );
    expect(s.steps.map((x) => [x.line, x.step])).toEqual([
      [3, 'create'],
      [5, 'market'],
      [6, 'market'],
      [7, 'in_play'],
      [7, 'market'],
      [8, 'market'],
      [9, 'result'],
      [9, 'ended'],
    ]);
    expect(s.winner).toBe('11');
    const create = s.steps[0]!.command;
    expect(create.kind).toBe('create_sport_event');
    const body = create.body as { fixture: { status: number; sport_id: string }; markets: unknown[] };
    expect(body.fixture).toMatchObject({ status: FIXTURE_STATUS.NOT_STARTED, sport_id: 'cricket' });
    expect(body.markets).toEqual([
      expect.objectContaining({
        id: '1.5',
        status: MARKET_STATUS.ACTIVE,
        odds: [
          expect.objectContaining({ id: '11', value: '1.500000000000', is_active: true }),
          expect.objectContaining({ id: '22', value: '3.100000000000', is_active: true }),
        ],
      }),
    ]);
    expect(s.steps.slice(1).map((x) => x.command.body)).toEqual([
      { markets: [{ id: '1.5', odds: [{ id: '11', value: '1.450000000000' }] }] },
      { markets: [{ id: '1.5', status: MARKET_STATUS.SUSPENDED }] },
      { status: FIXTURE_STATUS.LIVE },
      { markets: [{ id: '1.5', status: MARKET_STATUS.ACTIVE }] },
      { markets: [{ id: '1.5', odds: [{ id: '22', value: '3.250000000000' }] }] },
      {
        markets: [
          {
            id: '1.5',
            status: MARKET_STATUS.RESULTED,
            odds: [
              { id: '11', status: ODD_STATUS.WIN },
              { id: '22', status: ODD_STATUS.LOSS },
            ],
          },
        ],
      },
      { status: FIXTURE_STATUS.ENDED },
    ]);
    // the probabilities Bookie's feed gives at 1.45 / 3.1: 1/price over Σ 1/price, i.e. 3.1 / 4.55 and 1.45 / 4.55
    expect(probabilitiesOf(s.steps[1]!.bookie)).toEqual({ '11': '0.681318681319', '22': '0.318681318681' });
  });

  it('a REMOVED runner becomes an inactive outcome, leaves the probabilities and is refunded at the result', () => {
    const three: [number, string][] = [...two, [33, 'ACTIVE']];
    const s = oddsStreamScript(
      messages([
        def(1, 'OPEN', false, three),
        ltp(2, { 11: '2', 22: '4', 33: '4' }),
        def(3, 'OPEN', false, [
          [11, 'ACTIVE'],
          [22, 'ACTIVE'],
          [33, 'REMOVED'],
        ]),
        ltp(4, { 33: '5' }), // a removed runner's price is not published
        def(5, 'CLOSED', false, [
          [11, 'LOSER'],
          [22, 'WINNER'],
          [33, 'REMOVED'],
        ]),
      ]),
    );
    expect(s.steps.map((x) => x.step)).toEqual(['create', 'market', 'result', 'ended']);
    expect(s.steps[1]!.command.body).toEqual({
      markets: [{ id: '1.5', odds: [{ id: '33', is_active: false }] }],
    });
    expect(probabilitiesOf(s.steps[1]!.bookie)).toEqual({
      '11': '0.666666666667',
      '22': '0.333333333333',
      '33': null,
    });
    expect(s.steps[2]!.command.body).toEqual({
      markets: [
        {
          id: '1.5',
          status: MARKET_STATUS.RESULTED,
          odds: [
            { id: '11', status: ODD_STATUS.LOSS },
            { id: '22', status: ODD_STATUS.WIN },
            { id: '33', status: ODD_STATUS.REFUNDED },
          ],
        },
      ],
    });
  });

  it('a market that closes without a WINNER is cancelled and every outcome refunded', () => {
    const s = oddsStreamScript(
      messages([def(1, 'OPEN', false, two), ltp(2, { 11: '2', 22: '2' }), def(3, 'CLOSED', false, two)]),
    );
    expect(s.winner).toBeUndefined();
    expect(s.steps[1]!.command.body).toEqual({
      markets: [
        {
          id: '1.5',
          status: MARKET_STATUS.CANCELLED,
          odds: [
            { id: '11', status: ODD_STATUS.REFUNDED },
            { id: '22', status: ODD_STATUS.REFUNDED },
          ],
        },
      ],
    });
  });

  it('refuses a recording that never prices the market', () => {
    expect(() => oddsStreamScript(messages([def(1, 'OPEN', false, two), ltp(2, { 11: '2' })]))).toThrow(
      RangeError,
    );
  });

  it('the committed excerpt covers the whole match: pre-match, the in-play suspension, in play, the close with a WINNER', async () => {
    const messages = await readMcmFile(EXCERPT);
    expect(messages).toHaveLength(readFileSync(EXCERPT, 'utf8').trim().split('\n').length);
    const s = oddsStreamScript(messages);
    expect(s.betfairMarketId).toBe('1.200806927');
    expect(s.winner).toBe('228749');
    const statuses = s.steps.map((x) => `${x.betfair.status}${x.betfair.inPlay ? '/in-play' : ''}`);
    const firstOf = (v: string) => statuses.indexOf(v);
    expect(firstOf('OPEN')).toBe(0);
    expect(firstOf('SUSPENDED')).toBeGreaterThan(firstOf('OPEN'));
    expect(firstOf('OPEN/in-play')).toBeGreaterThan(firstOf('SUSPENDED'));
    expect(firstOf('SUSPENDED/in-play')).toBeGreaterThan(firstOf('OPEN/in-play'));
    expect(s.steps.at(-2)!.step).toBe('result');
    expect(s.steps.filter((x) => x.step === 'market').length).toBeGreaterThan(150);
    // every published value is the Betfair price of its line, on 12 decimals
    for (const step of s.steps.filter((x) => x.step === 'market' && x.betfair.status === 'OPEN')) {
      for (const r of step.betfair.runners) {
        expect(step.bookie.odds[r.id]!.value).toBe(
          r.price!.includes('.')
            ? r.price!.padEnd(r.price!.indexOf('.') + 13, '0')
            : `${r.price}.000000000000`,
        );
      }
    }
    // the bet goes on the first open pre-match step within 24 h of the scheduled start (11 July 11:00 UTC)
    const i = betStepIndex(s, '228749', 24 * 3_600_000);
    expect(new Date(s.steps[i]!.at).toISOString()).toBe('2022-07-10T12:12:07.995Z');
    expect(s.steps[i]!.betfair.runners[0]!.price).toBe('1.23');
  });
});

describe('showsState', () => {
  it("is true when the replica shows the step's fixture status, market status and odds (odds of a suspended market are not compared)", () => {
    const s = oddsStreamScript(
      parseMcmText(
        [
          def(1, 'OPEN', false, [
            [11, 'ACTIVE'],
            [22, 'ACTIVE'],
          ]),
          ltp(2, { 11: '2', 22: '2' }),
        ].join('\n'),
      ),
    );
    const state = s.steps[0]!.bookie;
    const odd = (id: string, value: string) => ({ id, value, status: 0, template: '', is_active: true });
    const event = (marketStatus: number, v: string) =>
      ({
        id: s.sportEventId,
        fixture: { status: 0 },
        markets: {
          '1.5': { status: marketStatus, odds: { '11': odd('11', v), '22': odd('22', '2.000000000000') } },
        },
      }) as never;
    expect(showsState(event(0, '2.000000000000'), '1.5', state)).toBe(true);
    expect(showsState(event(0, '2.100000000000'), '1.5', state)).toBe(false);
    expect(showsState(event(1, '2.000000000000'), '1.5', state)).toBe(false);
    expect(showsState(event(1, '9.000000000000'), '1.5', { ...state, marketStatus: 1 })).toBe(true);
    expect(showsState(undefined, '1.5', state)).toBe(false);
  });
});
