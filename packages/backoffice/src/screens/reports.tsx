import { useState } from 'preact/hooks';
import { api, downloadCsv, qs } from '../api.js';
import { money } from '../format.js';
import { DataTable, ErrorBox, PeriodInputs, Section, useAction, useLoad } from '../ui.js';

interface DailyRow {
  day: string;
  currency: string;
  bets_placed: number;
  bets_accepted: number;
  bets_settled: number;
  stake: string;
  settled_stake: string;
  settle_amount: string;
  ggr: string;
  advisory_bets: number;
  advisory_stake: string;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Reports: the daily report on screen; bet and daily reports as CSV downloads. */
export function Reports({ wl }: { wl: string }) {
  const [from, setFrom] = useState(day(new Date(Date.now() - 6 * 86_400_000)));
  const [to, setTo] = useState(day(new Date(Date.now() + 86_400_000)));
  const window = () => ({ from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` });
  const daily = useLoad(
    () => api<{ items: DailyRow[] }>('GET', `/reports/daily${qs(window())}`),
    [wl, from, to],
  );
  const act = useAction();
  const download = (report: 'bets' | 'daily') =>
    act.run(() =>
      downloadCsv(`/reports/${report}${qs({ ...window(), format: 'csv' })}`, `${report}-${from}-${to}.csv`),
    );
  return (
    <Section title="Reports">
      <div class="filters">
        <PeriodInputs from={from} to={to} setFrom={setFrom} setTo={setTo} />
        <button type="button" onClick={() => download('bets')} disabled={act.busy}>
          Download bets CSV
        </button>
        <button type="button" onClick={() => download('daily')} disabled={act.busy}>
          Download daily CSV
        </button>
      </div>
      <ErrorBox error={daily.error || act.error} />
      <DataTable
        head={
          <tr>
            <th>day</th>
            <th>currency</th>
            <th>placed</th>
            <th>accepted</th>
            <th>settled</th>
            <th>stake</th>
            <th>settled stake</th>
            <th>paid</th>
            <th>GGR</th>
            <th>advisory</th>
            <th>advisory stake</th>
          </tr>
        }
      >
        {(daily.data?.items ?? []).map((r) => (
          <tr>
            <td>{r.day}</td>
            <td>{r.currency}</td>
            <td>{r.bets_placed}</td>
            <td>{r.bets_accepted}</td>
            <td>{r.bets_settled}</td>
            <td class="num">{money(r.stake, r.currency)}</td>
            <td class="num">{money(r.settled_stake, r.currency)}</td>
            <td class="num">{money(r.settle_amount, r.currency)}</td>
            <td class="num">{money(r.ggr, r.currency)}</td>
            <td>{r.advisory_bets}</td>
            <td class="num">{money(r.advisory_stake, r.currency)}</td>
          </tr>
        ))}
      </DataTable>
    </Section>
  );
}
