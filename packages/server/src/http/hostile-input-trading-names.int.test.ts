import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app/test-app.js';
import { sampleEvent } from '../modules/trading/fixtures.js';
import { TEST_ADMIN_TOKEN } from '../testing/partner.js';
import { useHostileWorld } from './hostile-input.testing.js';

/**
 * Hostile names and ids in trading commands (docs/adr/0016-safety-and-conformance.md): control and bidi characters
 * and over-long names and ids answer 400 naming the field and write nothing.
 */
describe(`hostile input (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;

  const { rowCounts } = useHostileWorld((started) => {
    ({ t } = started);
  });

  it('refuses control and bidi characters and over-long names and ids in trading commands: 400 naming the field, nothing written', async () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const post = (url: string, body: unknown, method: 'POST' | 'PUT' | 'PATCH' = 'POST') =>
      t.app.inject({ method, url, headers: admin, payload: JSON.stringify(body) });
    const created = await post('/trading/sport-events', sampleEvent());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const before = await rowCounts();
    const long = (n: number) => 'x'.repeat(n);
    type Body = ReturnType<typeof sampleEvent>;
    const createCases: Array<[string, (b: Body) => void, string]> = [];
    for (const [ch, label] of [
      ['\u202E', 'RLO'],
      ['\u2066', 'LRI'],
      ['\u200F', 'RLM'],
      ['\u0007', 'BEL'],
      ['\n', 'newline'],
      ['\u009B', 'CSI'],
      ['\u007F', 'DEL'],
    ] as const) {
      createCases.push([
        `competitor name with ${label}`,
        (b) => {
          b.fixture.competitors.c1!.name = `Arsenal${ch}lanesra`;
        },
        'body.fixture.competitors.c1.name',
      ]);
    }
    createCases.push(
      [
        'tournament name',
        (b) => {
          b.fixture.tournament.name = `League\u202A`;
        },
        'body.fixture.tournament.name',
      ],
      [
        'fixture template',
        (b) => {
          b.fixture.template = `{$competitor1}\u2067 vs`;
        },
        'body.fixture.template',
      ],
      [
        'market template',
        (b) => {
          b.markets![0]!.template = '1x2\u200E';
        },
        'body.markets[0].template',
      ],
      [
        'odd template',
        (b) => {
          b.markets![0]!.odds[0]!.template = '\u202D1';
        },
        'body.markets[0].odds[0].template',
      ],
      [
        'long competitor name',
        (b) => {
          b.fixture.competitors.c1!.name = long(257);
        },
        'body.fixture.competitors.c1.name',
      ],
      [
        'long tournament id',
        (b) => {
          b.fixture.tournament.id = long(129);
        },
        'body.fixture.tournament.id',
      ],
      [
        'long market id',
        (b) => {
          b.markets![0]!.id = long(129);
        },
        'body.markets[0].id',
      ],
      [
        'long odd id',
        (b) => {
          b.markets![0]!.odds[0]!.id = long(129);
        },
        'body.markets[0].odds[0].id',
      ],
      [
        'long sport id',
        (b) => {
          b.fixture.sport_id = long(129);
        },
        'body.fixture.sport_id',
      ],
      [
        'long competitor key',
        (b) => {
          b.fixture.competitors[long(129)] = b.fixture.competitors.c2!;
          delete b.fixture.competitors.c2;
        },
        'body.fixture.competitors',
      ],
      [
        'bidi specifier',
        (b) => {
          b.markets![0]!.specifiers = { total: '2.5\u202E' };
        },
        'body.markets[0].specifiers.total',
      ],
    );
    for (const [what, change, field] of createCases) {
      const body = sampleEvent();
      change(body);
      const r = await post('/trading/sport-events', body);
      expect(r.statusCode, what).toBe(400);
      expect(r.json().error.details.field, what).toBe(field);
    }
    // the limits themselves are accepted
    const atLimit = sampleEvent();
    atLimit.fixture.competitors.c1!.name = `Ärsenal 😀 ${long(245)}`;
    atLimit.markets![0]!.id = long(128);
    expect((await post('/trading/sport-events', atLimit)).statusCode).toBe(201);
    const afterCreate = await rowCounts();

    const commands: Array<[string, string, unknown, string, 'POST' | 'PUT' | 'PATCH']> = [
      ['fixture', `/trading/sport-events/${id}/fixture`, { template: 'a\u202Eb' }, 'body.template', 'PATCH'],
      ['fixture', `/trading/sport-events/${id}/fixture`, { sport_id: long(129) }, 'body.sport_id', 'PATCH'],
      [
        'fixture',
        `/trading/sport-events/${id}/fixture`,
        { tournament: { id: 't1', name: 'x\u2069', master_id: 'm' } },
        'body.tournament.name',
        'PATCH',
      ],
      [
        'markets',
        `/trading/sport-events/${id}/markets`,
        { markets: [{ id: '9', type_id: 1, template: long(257), odds: [] }] },
        'body.markets[0].template',
        'PUT',
      ],
      [
        'markets',
        `/trading/sport-events/${id}/markets`,
        { markets: [{ id: '1', odds: [{ id: '1', template: '\u200Fx' }] }] },
        'body.markets[0].odds[0].template',
        'PATCH',
      ],
      [
        'scores',
        `/trading/sport-events/${id}/scores`,
        {
          competitors: {
            c1: { total: { id: 'total\u0001', type: 1, number: 0, points: '1' } },
          },
        },
        'body.competitors.c1.total.id',
        'PATCH',
      ],
      [
        'changes',
        `/trading/sport-events/${id}/changes`,
        { changes: { 'fixture/competitors/c1/name': 'Arse\u202Enal' } },
        'body.changes.fixture/competitors/c1/name',
        'POST',
      ],
      [
        'rollback',
        `/trading/sport-events/${id}/bet-rollbacks`,
        {
          market_ids: [long(129)],
          reason: 1,
          dt_start: '2030-06-01T18:00:00Z',
          dt_end: '2030-06-01T18:01:00Z',
        },
        'body.market_ids[0]',
        'POST',
      ],
    ];
    for (const [what, u, body, field, method] of commands) {
      const r = await post(u, body, method);
      expect(r.statusCode, `${what} ${r.body}`).toBe(400);
      expect(r.json().error.details.field, what).toContain(field);
    }
    expect(before).not.toEqual(afterCreate);
    expect(await rowCounts()).toEqual(afterCreate);
  });
});
