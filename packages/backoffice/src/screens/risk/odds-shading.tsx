import { api } from '../../api.js';
import { odds } from '../../format.js';
import { DataTable, ErrorBox, Section, useLoad } from '../../ui.js';

/** The odds shading has lowered. */
export function Shading() {
  const s = useLoad(() =>
    api<{
      items: Array<{
        sport_event_id: string;
        market_id: string;
        odd_id: string;
        market_type_id: string;
        base_odds: string;
        lowest_odds: string;
        publications: number;
      }>;
    }>('GET', '/admin/risk/shading?limit=100'),
  );
  return (
    <Section title="Odds shading">
      <p class="hint">
        Shading lowers an outcome’s published odds as its exposure nears the limit (RISK_SHADE_* settings of
        the server). The outcomes it has lowered:
      </p>
      <ErrorBox error={s.error} />
      <DataTable
        head={
          <tr>
            <th scope="col">outcome</th>
            <th scope="col" class="num">
              base odds
            </th>
            <th scope="col" class="num">
              lowest published
            </th>
            <th scope="col" class="num">
              times lowered
            </th>
          </tr>
        }
      >
        {(s.data?.items ?? []).map((x) => (
          <tr>
            <td>
              <a href={`#/live-book/${x.sport_event_id}`}>
                event {x.sport_event_id.slice(0, 8)} · market {x.market_id} · outcome {x.odd_id}
              </a>
            </td>
            <td class="num">{odds(x.base_odds)}</td>
            <td class="num">{odds(x.lowest_odds)}</td>
            <td class="num">{x.publications}</td>
          </tr>
        ))}
      </DataTable>
      {s.data && s.data.items.length === 0 && <p class="hint">No odds lowered yet.</p>}
    </Section>
  );
}
