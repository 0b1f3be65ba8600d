import { useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { reading, TimeChart } from '../chart.js';
import { count, money, Named, percent, share, time } from '../format.js';
import { type Figures, type Overview, utcDay } from '../overview.js';
import { DataTable, ErrorBox, PeriodInputs, Section, useLoad } from '../ui.js';

const load = (from: string, to: string) =>
  api<Overview>('GET', `/admin/overview${qs({ from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` })}`);

/** One figure of the home: its name, value, and the screen it comes from. */
function Figure({
  name,
  value,
  exact,
  href,
  testId,
  tone,
}: {
  name: string;
  value: string;
  exact?: string;
  href: string;
  testId: string;
  tone?: 'bad' | 'ok' | undefined;
}) {
  return (
    <a class={`figure ${tone ?? ''}`} href={href} data-testid={testId} data-value={exact ?? value}>
      <span class="figure-name">{name}</span>
      <span class="figure-value">{value}</span>
    </a>
  );
}

/** The bet figures of one window, per currency. */
function BetFigures({ label, figures, id }: { label: string; figures: Figures[]; id: string }) {
  if (figures.length === 0) return <p class="hint">{label}: no bets.</p>;
  return (
    <>
      {figures.map((f) => (
        <div class="figures" key={f.currency}>
          <Figure
            name={`Turnover ${label}`}
            value={money(f.turnover, f.currency)}
            exact={f.turnover}
            href="#/home"
            testId={`${id}-turnover-${f.currency}`}
          />
          <Figure
            name={`GGR ${label}`}
            value={money(f.ggr, f.currency)}
            exact={f.ggr}
            href="#/home"
            testId={`${id}-ggr-${f.currency}`}
            tone={f.ggr.startsWith('-') ? 'bad' : undefined}
          />
          <Figure
            name="Margin (GGR ÷ settled stake)"
            value={percent(f.margin)}
            exact={f.margin ?? ''}
            href="#/home"
            testId={`${id}-margin-${f.currency}`}
          />
          <Figure
            name="Bets accepted / declined"
            value={`${count(f.bets_accepted)} / ${count(f.bets_declined)}`}
            href="#/home"
            testId={`${id}-bets-${f.currency}`}
          />
        </div>
      ))}
    </>
  );
}

/**
 * The operator home: today's and a chosen period's turnover, GGR, margin and bets; the open liability (total and
 * the ten largest outcomes); callbacks failing per white label; settlement lag and quarantine; white labels with an
 * unsupported optional callback. Each figure links to its screen.
 */
export function Home() {
  const [from, setFrom] = useState(utcDay(-6));
  const [to, setTo] = useState(utcDay(1));
  const today = useLoad(() => load(utcDay(0), utcDay(1)));
  const period = useLoad(() => load(from, to), [from, to]);
  const events = useLoad(() =>
    api<{ items: Array<{ id: string; name: string }> }>('GET', '/trading/sport-events?limit=1000'),
  );
  const eventNames = new Map((events.data?.items ?? []).map((e) => [e.id, e.name]));
  const o = period.data;
  const names = new Map((o?.white_labels ?? []).map((w) => [w.id, w.name]));
  const currencies = [...new Set((o?.days ?? []).flatMap((d) => d.figures.map((f) => f.currency)))];
  const [currency, setCurrency] = useState('');
  const cur = currency || currencies[0] || 'EUR';
  // every day of the period is on the chart: a day without bets is 0, never a gap that stretches the axis
  const days: string[] = [];
  for (
    let t = Date.parse(`${from}T00:00:00Z`);
    t < Date.parse(`${to}T00:00:00Z`) && days.length < 93;
    t += 86_400_000
  )
    days.push(new Date(t).toISOString().slice(0, 10));
  const byDay = new Map((o?.days ?? []).map((d) => [d.day, d]));
  const of = (field: 'turnover' | 'ggr') =>
    days.map((d) => reading(byDay.get(d)?.figures.find((f) => f.currency === cur)?.[field] ?? '0'));
  return (
    <>
      <Section title="Today (UTC)">
        <ErrorBox error={today.error} />
        {today.data && <BetFigures label="today" id="today" figures={today.data.totals} />}
        {today.data && (
          <div class="figures">
            <Figure
              name="Open liability (EUR)"
              value={money(today.data.liability.total_eur, 'EUR')}
              exact={today.data.liability.total_eur}
              href="#/heatmap"
              testId="liability-total"
            />
            <Figure
              name="Callbacks failing"
              value={count(today.data.callbacks_failing.reduce((n, c) => n + c.failing, 0))}
              href="#/settlement"
              testId="callbacks-failing"
              tone={today.data.callbacks_failing.length > 0 ? 'bad' : 'ok'}
            />
            <Figure
              name="Settlement lag (log entries)"
              value={count(today.data.settlement.lag_entries)}
              href="#/settlement"
              testId="settlement-lag"
              tone={today.data.settlement.lag_entries === '0' ? 'ok' : 'bad'}
            />
            <Figure
              name="Quarantined entries"
              value={count(today.data.settlement.quarantined)}
              href="#/settlement"
              testId="quarantined"
              tone={today.data.settlement.quarantined > 0 ? 'bad' : 'ok'}
            />
            <Figure
              name="Unsupported optional callbacks"
              value={count(today.data.unsupported_callbacks.length)}
              href="#/white-labels"
              testId="unsupported-callbacks"
            />
          </div>
        )}
      </Section>
      <Section title="Period">
        <div class="filters">
          <PeriodInputs from={from} to={to} setFrom={setFrom} setTo={setTo} />
          {currencies.length > 1 && (
            <label>
              Chart currency
              <select value={cur} onChange={(e) => setCurrency((e.target as HTMLSelectElement).value)}>
                {currencies.map((c) => (
                  <option value={c}>{c}</option>
                ))}
              </select>
            </label>
          )}
        </div>
        <ErrorBox error={period.error} />
        {o && <BetFigures label="in the period" id="period" figures={o.totals} />}
        {o && days.length > 0 && (
          <div class="charts">
            <TimeChart
              title={`Turnover (${cur})`}
              days={days}
              series={[{ label: 'turnover', values: of('turnover'), stroke: '#14325c' }]}
            />
            <TimeChart
              title={`GGR (${cur})`}
              days={days}
              series={[{ label: 'GGR', values: of('ggr'), stroke: '#1d6b34' }]}
            />
          </div>
        )}
        {o && (
          <DataTable
            caption="Per white label"
            head={
              <tr>
                <th scope="col">white label</th>
                <th scope="col">currency</th>
                <th scope="col" class="num">
                  turnover
                </th>
                <th scope="col" class="num">
                  GGR
                </th>
                <th scope="col" class="num">
                  margin
                </th>
                <th scope="col" class="num">
                  accepted
                </th>
                <th scope="col" class="num">
                  declined
                </th>
              </tr>
            }
          >
            {o.by_white_label.flatMap((w) =>
              w.figures.map((f) => (
                <tr data-white-label={w.white_label_id}>
                  <td>
                    <Named id={w.white_label_id} name={names.get(w.white_label_id)} />
                  </td>
                  <td>{f.currency}</td>
                  <td class="num">{money(f.turnover, f.currency)}</td>
                  <td class="num">{money(f.ggr, f.currency)}</td>
                  <td class="num">{percent(f.margin)}</td>
                  <td class="num">{count(f.bets_accepted)}</td>
                  <td class="num">{count(f.bets_declined)}</td>
                </tr>
              )),
            )}
          </DataTable>
        )}
      </Section>
      {today.data && (
        <>
          <Section title="Largest open liabilities">
            <p>
              <a href="#/heatmap">Open the heatmap</a> · {count(today.data.liability.outcomes)} outcomes carry
              exposure.
            </p>
            <DataTable
              head={
                <tr>
                  <th scope="col">outcome</th>
                  <th scope="col">white label</th>
                  <th scope="col">phase</th>
                  <th scope="col" class="num">
                    exposure (EUR)
                  </th>
                  <th scope="col">of the limit</th>
                </tr>
              }
            >
              {today.data.liability.largest.map((x) => {
                const s = share(x.exposure_eur, x.limit_eur);
                return (
                  <tr>
                    <td>
                      <a href={`#/live-book/${x.sport_event_id}`}>
                        {eventNames.get(x.sport_event_id) ?? `${x.sport_event_id.slice(0, 8)}…`} · market{' '}
                        {x.market_id} · outcome {x.odd_id}
                      </a>
                    </td>
                    <td>
                      <Named id={x.white_label_id} name={names.get(x.white_label_id)} />
                    </td>
                    <td>{x.phase}</td>
                    <td class="num">{money(x.exposure_eur, 'EUR')}</td>
                    <td>
                      <LimitBar share={s} limit={x.limit_eur} />
                    </td>
                  </tr>
                );
              })}
            </DataTable>
          </Section>
          <Section title="Callbacks failing by white label">
            {today.data.callbacks_failing.length === 0 ? (
              <p class="ok">No callback is failing.</p>
            ) : (
              <ul>
                {today.data.callbacks_failing.map((c) => (
                  <li>
                    <a href="#/settlement">{names.get(c.white_label_id) ?? c.white_label_id}</a>:{' '}
                    {count(c.failing)} failing since {time(c.oldest_at)}
                  </li>
                ))}
              </ul>
            )}
            <h3>Optional callbacks learnt unsupported</h3>
            {today.data.unsupported_callbacks.length === 0 ? (
              <p class="ok">None.</p>
            ) : (
              <ul>
                {today.data.unsupported_callbacks.map((c) => (
                  <li>
                    <a href="#/white-labels">{names.get(c.white_label_id) ?? c.white_label_id}</a>:{' '}
                    {c.callback}
                  </li>
                ))}
              </ul>
            )}
          </Section>
        </>
      )}
    </>
  );
}

/** exposure ÷ limit as a bar against the limit, with the share written. */
export function LimitBar({ share: s, limit }: { share: number | undefined; limit: string | null }) {
  if (s === undefined) return <span class="hint">no limit</span>;
  const pct = Math.round(s * 100);
  return (
    <span class="limit-bar" title={`limit ${money(limit, 'EUR')}`}>
      <span
        class={`bar ${s >= 1 ? 'over' : s >= 0.8 ? 'near' : ''}`}
        style={{ width: `${Math.min(100, Math.max(0, pct))}%` }}
      />
      <span class="bar-text">
        {pct} % of {money(limit, 'EUR')}
      </span>
    </span>
  );
}
