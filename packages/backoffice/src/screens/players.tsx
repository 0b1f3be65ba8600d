import { useEffect, useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { ErrorBox, Section, useAction, useLoad } from '../ui.js';

interface PlayerRisk {
  player_id: string;
  score: string;
  bets_scored: number;
  group: string;
  stake_factor: string;
  group_source: string;
}

/** The risk groups every white label has (the operator may add more; a partner can type any group's name). */
const GROUPS = ['default', 'vip', 'restricted', 'blocked'];

/**
 * Players: the recent bettors of the white label (from its bets) or one found by id, each with its risk score,
 * group and stake factor; set the group, or block the player (its bets are then declined).
 */
export function Players({ wl, readOnly }: { wl: string; readOnly: boolean }) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const { data, error, reload } = useLoad(async () => {
    let ids: string[];
    if (query) ids = [query];
    else {
      const bets = await api<{ items: Array<{ player_id: string }> }>('GET', `/bets${qs({ limit: '200' })}`);
      ids = [...new Set(bets.items.map((b) => b.player_id))].slice(0, 25);
    }
    return Promise.all(ids.map((id) => api<PlayerRisk>('GET', `/players/${encodeURIComponent(id)}/risk`)));
  }, [wl, query]);
  return (
    <Section title="Players">
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(search.trim());
        }}
      >
        <label>
          Player id
          <input
            name="player_id"
            value={search}
            placeholder="all recent bettors"
            onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">Find</button>
      </form>
      <ErrorBox error={error} />
      <table>
        <thead>
          <tr>
            <th>player</th>
            <th>risk score</th>
            <th>bets scored</th>
            <th>group</th>
            <th>stake factor</th>
            <th>set by</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(data ?? []).map((p) => (
            <PlayerRow key={p.player_id} p={p} readOnly={readOnly} onChanged={reload} />
          ))}
        </tbody>
      </table>
      {data && data.length === 0 && <p>No bets yet: find a player by id.</p>}
    </Section>
  );
}

function PlayerRow({ p, readOnly, onChanged }: { p: PlayerRisk; readOnly: boolean; onChanged: () => void }) {
  const [group, setGroup] = useState(p.group);
  useEffect(() => setGroup(p.group), [p.group]);
  const act = useAction();
  const put = (g: string) =>
    act.run(async () => {
      await api('PUT', `/players/${encodeURIComponent(p.player_id)}/risk`, { group: g });
      onChanged();
    });
  const groups = GROUPS.includes(p.group) ? GROUPS : [...GROUPS, p.group];
  return (
    <tr data-player={p.player_id}>
      <td>
        <code>{p.player_id}</code>
      </td>
      <td>{p.score}</td>
      <td>{p.bets_scored}</td>
      <td data-field="group" class={p.group === 'blocked' ? 'bad' : ''}>
        {p.group}
      </td>
      <td>{p.stake_factor}</td>
      <td>{p.group_source}</td>
      <td>
        {!readOnly && (
          <>
            <select
              name="group"
              aria-label={`Risk group of ${p.player_id}`}
              value={group}
              onChange={(e) => setGroup((e.target as HTMLSelectElement).value)}
            >
              {groups.map((g) => (
                <option value={g}>{g}</option>
              ))}
            </select>{' '}
            <button type="button" disabled={act.busy || group === p.group} onClick={() => put(group)}>
              Set group
            </button>{' '}
            {p.group !== 'blocked' && (
              <button type="button" class="danger" disabled={act.busy} onClick={() => put('blocked')}>
                Block
              </button>
            )}
          </>
        )}
        <ErrorBox error={act.error} />
      </td>
    </tr>
  );
}
