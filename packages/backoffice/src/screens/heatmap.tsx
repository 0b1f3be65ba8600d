import { useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { money, share } from '../format.js';
import { MARKET_TYPES } from '../names.js';
import type { ExposureItem } from '../overview.js';
import { DataTable, ErrorBox, Section, useLoad } from '../ui.js';

interface EventName {
  id: string;
  name: string;
  tournament: string;
}

/** A cell of the heatmap: an event's markets of one type, the outcome closest to (or over) its limit. */
interface Cell {
  share: number | undefined;
  exposure: string;
  limit: string | null;
  where: string;
}

/** The colour band of exposure ÷ limit; each band is also written in the cell (never colour alone). */
function band(s: number | undefined): string {
  if (s === undefined) return 'h-none';
  if (s >= 1) return 'h-over';
  if (s >= 0.8) return 'h-high';
  if (s >= 0.5) return 'h-mid';
  if (s > 0) return 'h-low';
  return 'h-zero';
}

/**
 * The liability heatmap: events (rows) × market types (columns), each cell coloured by the largest exposure ÷ limit
 * among its outcomes and white labels (any white label's limit; no limit is grey). A cell opens the event in the
 * live book.
 */
export function Heatmap() {
  const [wl, setWl] = useState('');
  const exposure = useLoad(
    () =>
      api<{ items: ExposureItem[] }>(
        'GET',
        `/admin/risk/exposure${qs({ white_label_id: wl || undefined, limit: '10000' })}`,
      ),
    [wl],
  );
  const events = useLoad(() => api<{ items: EventName[] }>('GET', '/trading/sport-events?limit=1000'));
  const white = useLoad(() =>
    api<{ white_labels: Array<{ id: string; name: string }> }>('GET', '/admin/white-labels'),
  );
  const names = new Map((events.data?.items ?? []).map((e) => [e.id, e]));
  const cells = new Map<string, Map<string, Cell>>();
  const types = new Set<string>();
  for (const x of exposure.data?.items ?? []) {
    types.add(x.market_type_id);
    let row = cells.get(x.sport_event_id);
    if (!row) {
      row = new Map();
      cells.set(x.sport_event_id, row);
    }
    const s = share(x.exposure_eur, x.limit_eur);
    const had = row.get(x.market_type_id);
    if (!had || (s ?? -1) > (had.share ?? -1)) {
      row.set(x.market_type_id, {
        share: s,
        exposure: x.exposure_eur,
        limit: x.limit_eur,
        where: `market ${x.market_id}, outcome ${x.odd_id}, ${x.phase}`,
      });
    }
  }
  const columns = [...types].sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : 1));
  const rows = [...cells.entries()].sort(
    ([, a], [, b]) =>
      Math.max(...[...b.values()].map((c) => c.share ?? 0)) -
      Math.max(...[...a.values()].map((c) => c.share ?? 0)),
  );
  return (
    <Section title="Liability heatmap">
      <div class="filters">
        <label>
          White label
          <select
            name="white_label"
            value={wl}
            onChange={(e) => setWl((e.target as HTMLSelectElement).value)}
          >
            <option value="">every white label</option>
            {(white.data?.white_labels ?? []).map((w) => (
              <option value={w.id}>{w.name}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={exposure.reload}>
          Refresh
        </button>
      </div>
      <ul class="legend" aria-label="Legend">
        <li class="h-low">under 50 %</li>
        <li class="h-mid">50–80 %</li>
        <li class="h-high">80–100 %</li>
        <li class="h-over">at or over the limit</li>
        <li class="h-none">no limit</li>
      </ul>
      <ErrorBox error={exposure.error || events.error} />
      {rows.length === 0 && exposure.data && <p class="hint">No outcome carries exposure.</p>}
      {rows.length > 0 && (
        <DataTable
          class="heatmap"
          data-testid="heatmap"
          head={
            <tr>
              <th scope="col">event</th>
              {columns.map((t) => (
                <th scope="col">{MARKET_TYPES[Number(t)] ?? `type ${t}`}</th>
              ))}
            </tr>
          }
        >
          {rows.map(([eventId, row]) => (
            <tr data-event={eventId}>
              <th scope="row" title={eventId}>
                {names.get(eventId)?.name ?? `${eventId.slice(0, 8)}…`}
                <br />
                <small>{names.get(eventId)?.tournament ?? ''}</small>
              </th>
              {columns.map((t) => {
                const c = row.get(t);
                if (!c) return <td class="h-empty" />;
                const pct = c.share === undefined ? 'no limit' : `${Math.round(c.share * 100)} %`;
                return (
                  <td class={band(c.share)} data-market-type={t}>
                    <a
                      href={`#/live-book/${eventId}`}
                      title={`${c.where}: ${money(c.exposure, 'EUR')}${c.limit ? ` of ${money(c.limit, 'EUR')}` : ''}`}
                    >
                      {pct}
                    </a>
                  </td>
                );
              })}
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}
