import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorBox, fmtTime, Section, useAction, useLoad } from '../ui.js';

type Kind = 'freebets' | 'insurances' | 'boosts';

const SINGLE = [{ type: 'bet_details', data: { bet_details: [{ type: 'single' }] } }];

const EXAMPLES: Record<Kind, unknown> = {
  freebets: { player_id: 'p-1001', currency_code: 'EUR', amount: '5.000000', conditions: SINGLE },
  insurances: {
    player_id: 'p-1001',
    currency_code: 'EUR',
    type: 'amount',
    amount: '5.000000',
    conditions: SINGLE,
  },
  boosts: { name: 'Weekend boost', multiplier: '1.1', quantity: 100, player_id: null },
};
const LIST: Record<Kind, string> = {
  freebets: '/freebets',
  insurances: '/insurances',
  boosts: '/bet-boosts',
};
const CREATE: Record<Kind, string> = {
  freebets: '/freebet/create',
  insurances: '/insurance/create',
  boosts: '/bet-boosts',
};

interface Bonus {
  id: string;
  player_id?: string;
  status?: string;
  amount?: string;
  currency_code?: string;
  created_at?: string;
}

/** Freebets, insurances and bet boosts: list, create (JSON as the partner API takes it), cancel a freebet. */
export function Bonuses({ wl, readOnly }: { wl: string; readOnly: boolean }) {
  const [kind, setKind] = useState<Kind>('freebets');
  const [body, setBody] = useState(JSON.stringify(EXAMPLES.freebets, null, 2));
  const { data, error, reload } = useLoad(() => api<{ items: Bonus[] }>('GET', LIST[kind]), [wl, kind]);
  const act = useAction();
  const choose = (k: Kind) => {
    setKind(k);
    setBody(JSON.stringify(EXAMPLES[k], null, 2));
  };
  const create = () =>
    act.run(async () => {
      await api('POST', CREATE[kind], JSON.parse(body));
      reload();
    });
  const cancel = (id: string) =>
    act.run(async () => {
      await api('POST', '/freebet/cancel', { id });
      reload();
    });
  return (
    <Section title="Bonuses">
      <div class="tabs">
        {(['freebets', 'insurances', 'boosts'] as const).map((k) => (
          <button type="button" class={k === kind ? 'active' : ''} onClick={() => choose(k)}>
            {k}
          </button>
        ))}
      </div>
      <ErrorBox error={error || act.error} />
      {!readOnly && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create();
          }}
        >
          <label>
            New {kind.slice(0, -1)} (JSON body of <code>POST {CREATE[kind]}</code>)
            <textarea
              rows={6}
              value={body}
              onInput={(e) => setBody((e.target as HTMLTextAreaElement).value)}
            />
          </label>
          <button type="submit" disabled={act.busy}>
            Create
          </button>
        </form>
      )}
      <table>
        <thead>
          <tr>
            <th>id</th>
            <th>player</th>
            <th>status</th>
            <th>amount</th>
            <th>created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(data?.items ?? []).map((b) => (
            <tr>
              <td>
                <code>{b.id}</code>
              </td>
              <td>{b.player_id ?? ''}</td>
              <td>{b.status ?? ''}</td>
              <td>{b.amount ? `${b.amount} ${b.currency_code ?? ''}` : ''}</td>
              <td>{fmtTime(b.created_at)}</td>
              <td>
                {!readOnly && kind === 'freebets' && b.status === 'available' && (
                  <button type="button" class="danger" onClick={() => cancel(b.id)}>
                    Cancel
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
