import { useRef, useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { money, Named, odds, share, time } from '../format.js';
import {
  FIXTURE_STATUS,
  fill,
  MARKET_ACTIVE,
  MARKET_STATUS,
  MARKET_SUSPENDED,
  marketName,
  type NamedEvent,
  outcomeName,
  SPORTS,
} from '../names.js';
import type { ExposureItem } from '../overview.js';
import { DataTable, ErrorBox, Section, useAction, useLoad } from '../ui.js';
import { LimitBar } from './home.js';

interface EventSummary {
  id: string;
  name: string;
  sport_id: string;
  tournament: string;
  start_time: string;
  status: number;
  bet_stop: boolean;
  markets: number;
  active_markets: number;
  version: string;
}
interface SnapshotMarket {
  id: string;
  status: number;
  type_id: number;
  template: string;
  specifiers: Record<string, string>;
  odds: Record<string, { id: string; value: string; status: number; is_active: boolean; template: string }>;
}
interface Snapshot {
  sport_event: NamedEvent & { id: string; markets: Record<string, SnapshotMarket>; bet_stop: boolean };
  version: string;
}

/** The live book's events grouped by sport, then tournament, in the list's order. */
function grouped(items: EventSummary[]): Array<[string, Array<[string, EventSummary[]]>]> {
  const sports = new Map<string, Map<string, EventSummary[]>>();
  for (const e of items) {
    const sport = SPORTS[e.sport_id] ?? e.sport_id;
    let t = sports.get(sport);
    if (!t) {
      t = new Map();
      sports.set(sport, t);
    }
    t.set(e.tournament, [...(t.get(e.tournament) ?? []), e]);
  }
  return [...sports.entries()].map(([s, t]) => [s, [...t.entries()]]);
}

/**
 * The live book: events by sport and tournament with their names, status and bet stop; an opened event's markets and
 * outcomes by name with the exposure on each outcome against its limit, and the trader's actions (suspend a market,
 * bet stop the event, move a price), from the keyboard too.
 */
export function LiveBook({ open }: { open?: string | undefined }) {
  const [status, setStatus] = useState('');
  const list = useLoad(
    () => api<{ items: EventSummary[] }>('GET', `/trading/sport-events${qs({ status, limit: '500' })}`),
    [status],
  );
  return (
    <Section title="Live book">
      <div class="filters">
        <label>
          Fixture status
          <select
            name="status"
            value={status}
            onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}
          >
            <option value="">any</option>
            {FIXTURE_STATUS.map((s, i) => (
              <option value={String(i)}>{s}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <ErrorBox error={list.error} />
      {open && <EventBook id={open} onChange={list.reload} />}
      {grouped(list.data?.items ?? []).map(([sport, tournaments]) => (
        <div class="sport" key={sport}>
          <h3>{sport}</h3>
          {tournaments.map(([tournament, events]) => (
            <DataTable
              key={tournament}
              caption={tournament}
              head={
                <tr>
                  <th scope="col">event</th>
                  <th scope="col">start</th>
                  <th scope="col">status</th>
                  <th scope="col">bet stop</th>
                  <th scope="col">markets (active)</th>
                </tr>
              }
            >
              {events.map((e) => (
                <tr key={e.id} data-event={e.id} class={open === e.id ? 'selected' : ''}>
                  <td>
                    <a href={`#/live-book/${e.id}`} title={e.id}>
                      {e.name}
                    </a>
                  </td>
                  <td>{time(e.start_time)}</td>
                  <td>{FIXTURE_STATUS[e.status] ?? e.status}</td>
                  <td>{e.bet_stop ? <strong class="bad">STOPPED</strong> : 'no'}</td>
                  <td>
                    {e.markets} ({e.active_markets})
                  </td>
                </tr>
              ))}
            </DataTable>
          ))}
        </div>
      ))}
    </Section>
  );
}

const TICK = 10_000_000_000n; // 0.01 in units of 10⁻¹²
const ONE = 1_000_000_000_000n;

/** A 12-decimal odd value moved by `ticks` hundredths, exact; undefined when it would not stay above 1. */
export function movedOdds(value: string, ticks: number): string | undefined {
  const [w = '0', f = ''] = value.split('.');
  const units = BigInt(w) * ONE + BigInt(f.padEnd(12, '0').slice(0, 12)) + BigInt(ticks) * TICK;
  if (units <= ONE) return undefined;
  return `${units / ONE}.${(units % ONE).toString().padStart(12, '0')}`;
}

/** The keyboard shortcuts of the event book (documented in the operator guide). */
export const SHORTCUTS: Array<[string, string]> = [
  ['↑ ↓ ← →', 'move between outcomes'],
  ['s', 'suspend or reactivate the outcome’s market'],
  ['b', 'bet stop the event, or lift it'],
  ['+ / −', 'raise or lower the outcome’s price by 0.01'],
  ['?', 'show or hide these shortcuts'],
];

function EventBook({ id, onChange }: { id: string; onChange: () => void }) {
  const { data, error, reload } = useLoad(() => api<Snapshot>('GET', `/trading/sport-events/${id}`), [id]);
  const exposure = useLoad(
    () =>
      api<{ items: ExposureItem[] }>(
        'GET',
        `/admin/risk/exposure${qs({ sport_event_id: id, limit: '10000' })}`,
      ),
    [id],
  );
  const white = useLoad(() =>
    api<{ white_labels: Array<{ id: string; name: string }> }>('GET', '/admin/white-labels'),
  );
  const names = new Map((white.data?.white_labels ?? []).map((w) => [w.id, w.name]));
  const [said, setSaid] = useState('');
  const [help, setHelp] = useState(false);
  const grid = useRef<HTMLTableElement>(null);
  const act = useAction();
  const byOutcome = new Map<string, ExposureItem[]>();
  for (const x of exposure.data?.items ?? []) {
    const k = `${x.market_id}|${x.odd_id}`;
    byOutcome.set(k, [...(byOutcome.get(k) ?? []), x]);
  }
  const done = (message: string) => {
    setSaid(message);
    reload();
    exposure.reload();
    onChange();
  };
  const patch = (body: unknown) => api('PATCH', `/trading/sport-events/${id}/markets`, body);
  const betStop = () =>
    act.run(async () => {
      const on = !data?.sport_event.bet_stop;
      await api('PUT', `/trading/sport-events/${id}/bet-stop`, { bet_stop: on });
      done(on ? 'Bet stop on the event' : 'Bet stop lifted');
    });
  const suspend = (m: SnapshotMarket) =>
    act.run(async () => {
      if (!data) return;
      const status = m.status === MARKET_SUSPENDED ? MARKET_ACTIVE : MARKET_SUSPENDED;
      await patch({ markets: [{ id: m.id, status }] });
      done(`${marketName(data.sport_event, m)}: ${MARKET_STATUS[status]}`);
    });
  const move = (m: SnapshotMarket, oddId: string, ticks: number) =>
    act.run(async () => {
      const o = m.odds[oddId];
      if (!o || !data) return;
      const value = movedOdds(o.value, ticks);
      if (!value) throw new Error('the price must stay above 1');
      await patch({ markets: [{ id: m.id, odds: [{ id: oddId, value }] }] });
      done(`${outcomeName(data.sport_event, m, o)}: ${odds(o.value)} → ${odds(value)}`);
    });
  if (!data) return <ErrorBox error={error} />;
  const event = data.sport_event;
  const markets = Object.values(event.markets);
  const onKey = (e: KeyboardEvent) => {
    const target = (e.target as HTMLElement).closest<HTMLElement>('[data-odd]');
    if (e.key === '?') {
      setHelp(!help);
      e.preventDefault();
      return;
    }
    if (e.key === 'b') {
      betStop();
      e.preventDefault();
      return;
    }
    if (!target || !grid.current) return;
    const [marketId = '', oddId = ''] = (target.dataset.odd ?? '').split('|');
    const m = event.markets[marketId];
    if (!m) return;
    const cells = Array.from(grid.current.querySelectorAll<HTMLElement>('[data-odd]'));
    const here = cells.indexOf(target);
    const rows = markets.map((x) => cells.filter((c) => c.dataset.odd?.startsWith(`${x.id}|`)));
    const row = markets.indexOf(m);
    const col = rows[row]?.indexOf(target) ?? 0;
    let next: HTMLElement | undefined;
    if (e.key === 'ArrowRight') next = cells[here + 1];
    else if (e.key === 'ArrowLeft') next = cells[here - 1];
    else if (e.key === 'ArrowDown') next = rows[row + 1]?.[Math.min(col, (rows[row + 1]?.length ?? 1) - 1)];
    else if (e.key === 'ArrowUp') next = rows[row - 1]?.[Math.min(col, (rows[row - 1]?.length ?? 1) - 1)];
    else if (e.key === 's') suspend(m);
    else if (e.key === '+' || e.key === '=') move(m, oddId, 1);
    else if (e.key === '-') move(m, oddId, -1);
    else return;
    e.preventDefault();
    next?.focus();
  };
  return (
    <div class="event-book" data-testid="event-book">
      <h3>
        <Named id={event.id} name={fill(event.fixture.template, event)} />
        {' · '}
        {event.fixture.tournament.name} (version {data.version})
      </h3>
      <div class="filters">
        <button type="button" class={event.bet_stop ? '' : 'danger'} onClick={betStop} disabled={act.busy}>
          {event.bet_stop ? 'Lift bet stop' : 'Bet stop'}
        </button>
        <button type="button" class="secondary" onClick={() => setHelp(!help)} aria-expanded={help}>
          Keyboard shortcuts
        </button>
      </div>
      {help && (
        <dl class="facts shortcuts" data-testid="shortcuts">
          {SHORTCUTS.map(([k, what]) => (
            <>
              <dt>
                <kbd>{k}</kbd>
              </dt>
              <dd>{what}</dd>
            </>
          ))}
        </dl>
      )}
      <output class="sr-status" aria-live="polite" data-testid="trader-said">
        {said}
      </output>
      <ErrorBox error={act.error || exposure.error} />
      <p class="hint">
        Focus an outcome (Tab) and use the shortcuts; each action is audited. Exposure is every white label’s,
        in EUR; the bar is the largest share of a white label’s limit.
      </p>
      <DataTable
        tableRef={grid}
        class="book"
        onKeyDown={onKey}
        head={
          <tr>
            <th scope="col">market</th>
            <th scope="col">status</th>
            <th scope="col">outcomes: price, exposure against the limit</th>
            <th scope="col" />
          </tr>
        }
      >
        {markets.map((m) => (
          <tr key={m.id} data-market={m.id} class={m.status === MARKET_SUSPENDED ? 'suspended' : ''}>
            <th scope="row" title={`market ${m.id}, type ${m.type_id}`}>
              {marketName(event, m)}
            </th>
            <td data-field="market-status">{MARKET_STATUS[m.status] ?? m.status}</td>
            <td>
              <div class="outcomes">
                {Object.values(m.odds).map((o) => {
                  const rows = byOutcome.get(`${m.id}|${o.id}`) ?? [];
                  const total = sumExact(rows.map((r) => r.exposure_eur));
                  const worst = rows
                    .map((r) => ({ r, s: share(r.exposure_eur, r.limit_eur) }))
                    .sort((a, b) => (b.s ?? -1) - (a.s ?? -1))[0];
                  return (
                    <button
                      type="button"
                      class={`outcome ${o.is_active ? '' : 'inactive'}`}
                      data-odd={`${m.id}|${o.id}`}
                    >
                      <span class="outcome-name">{outcomeName(event, m, o)}</span>{' '}
                      <strong class="price">{odds(o.value)}</strong>
                      {rows.length > 0 && (
                        <span
                          class="exposure"
                          data-field="exposure"
                          data-value={total}
                          title={rows
                            .map(
                              (r) =>
                                `${names.get(r.white_label_id) ?? r.white_label_id} ${r.phase}: ${r.exposure_eur}`,
                            )
                            .join('\n')}
                        >
                          exposure {money(total, 'EUR')}
                          <LimitBar share={worst?.s} limit={worst?.r.limit_eur ?? null} />
                        </span>
                      )}
                    </button>
                  );
                })}
              </div>
            </td>
            <td>
              <button type="button" class="secondary" onClick={() => suspend(m)} disabled={act.busy}>
                {m.status === MARKET_SUSPENDED ? 'Reactivate' : 'Suspend'}
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

/** Σ of 6-decimal money strings, exact (integers of millionths), written with 6 decimals. */
export function sumExact(values: string[]): string {
  let total = 0n;
  for (const v of values) {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v.trim());
    if (!m) continue;
    const n = BigInt((m[2] as string) + (m[3] ?? '').padEnd(6, '0').slice(0, 6));
    total += m[1] ? -n : n;
  }
  const neg = total < 0n;
  const a = neg ? -total : total;
  return `${neg ? '-' : ''}${a / 1_000_000n}.${(a % 1_000_000n).toString().padStart(6, '0')}`;
}
