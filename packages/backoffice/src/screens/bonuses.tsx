import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorBox, fmtTime, Section, useAction, useLoad } from '../ui.js';

type Kind = 'freebets' | 'insurances' | 'boosts';

/** Bonus conditions allowing single bets (the form's default; the JSON editor takes any). */
const SINGLE = [{ type: 'bet_details', data: { bet_details: [{ type: 'single' }] } }];

const LIST: Record<Kind, string> = {
  freebets: '/freebets',
  insurances: '/insurances',
  boosts: '/bet-boosts',
};
const CANCEL: Record<Kind, (id: string) => [string, unknown]> = {
  freebets: (id) => ['/freebet/cancel', { id }],
  insurances: (id) => ['/insurance/cancel', { id }],
  boosts: (id) => [`/bet-boosts/${encodeURIComponent(id)}/cancel`, {}],
};
const CANCELLABLE: Record<Kind, string[]> = {
  freebets: ['available', 'expired'],
  insurances: ['available', 'expired'],
  boosts: ['active', 'exhausted', 'expired'],
};

interface Bonus {
  id: string;
  player_id?: string | null;
  name?: string;
  status?: string;
  amount?: string | null;
  percent?: string | null;
  multiplier?: string;
  remaining_quantity?: number;
  quantity?: number;
  currency_code?: string;
  expires_at?: string | null;
  created_at?: string;
}

const field = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value);
const expiry = (v: string) => (v ? { expires_at: new Date(v).toISOString() } : {});

/**
 * Freebets, insurances and bet boosts: list; create one from a form, freebets in bulk (one per player id); change a
 * freebet's or an insurance's amount; cancel any of them.
 */
export function Bonuses({ wl, readOnly }: { wl: string; readOnly: boolean }) {
  const [kind, setKind] = useState<Kind>('freebets');
  const { data, error, reload } = useLoad(() => api<{ items: Bonus[] }>('GET', LIST[kind]), [wl, kind]);
  const act = useAction();
  const cancel = (id: string) =>
    act.run(async () => {
      const [path, body] = CANCEL[kind](id);
      await api('POST', path, body);
      reload();
    });
  const update = (b: Bonus) =>
    act.run(async () => {
      const amount = prompt(`New amount of ${b.id}`, b.amount ?? '');
      if (!amount) return;
      await api('POST', kind === 'freebets' ? '/freebet/update' : '/insurance/update', { id: b.id, amount });
      reload();
    });
  return (
    <Section title="Bonuses">
      <div class="tabs">
        {(['freebets', 'insurances', 'boosts'] as const).map((k) => (
          <button type="button" class={k === kind ? 'active' : ''} onClick={() => setKind(k)}>
            {k}
          </button>
        ))}
      </div>
      <ErrorBox error={error || act.error} />
      {!readOnly && <CreateForm key={kind} kind={kind} onCreated={reload} />}
      <table>
        <thead>
          <tr>
            <th>id</th>
            <th>player</th>
            <th>status</th>
            <th>{kind === 'boosts' ? 'multiplier (left / of)' : 'amount'}</th>
            <th>expires</th>
            <th>created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(data?.items ?? []).map((b) => (
            <tr key={b.id} data-bonus={b.id}>
              <td>
                <code>{b.id.slice(0, 8)}</code>
              </td>
              <td>{b.player_id ?? (kind === 'boosts' ? 'every player' : '')}</td>
              <td data-field="status">{b.status ?? ''}</td>
              <td>
                {kind === 'boosts'
                  ? `${b.multiplier} (${b.remaining_quantity} / ${b.quantity})`
                  : b.amount
                    ? `${b.amount} ${b.currency_code ?? ''}`
                    : b.percent
                      ? `${b.percent} %`
                      : ''}
              </td>
              <td>{fmtTime(b.expires_at)}</td>
              <td>{fmtTime(b.created_at)}</td>
              <td>
                {!readOnly &&
                  kind !== 'boosts' &&
                  b.status === 'available' &&
                  (b.amount ?? null) !== null && (
                    <button type="button" disabled={act.busy} onClick={() => update(b)}>
                      Change amount
                    </button>
                  )}{' '}
                {!readOnly && CANCELLABLE[kind].includes(b.status ?? '') && (
                  <button type="button" class="danger" disabled={act.busy} onClick={() => cancel(b.id)}>
                    Cancel
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {kind === 'insurances' && <InsuranceOpenItems wl={wl} />}
    </Section>
  );
}

interface OpenItem {
  white_label_id: string;
  bet_id: string;
  insurance_id: string;
  player_id: string;
  kind: 'refund_kept_not_earned' | 'refund_not_paid';
  amount: string;
  currency_code: string;
  since: string;
}

const OPEN_ITEM_KIND: Record<OpenItem['kind'], string> = {
  refund_kept_not_earned: 'kept by the player, no longer earned (the partner could not take it back)',
  refund_not_paid: 'earned, never paid (the partner has no insurance callbacks)',
};

/**
 * Insurance refunds to settle by hand with the partner: a refund is paid at most once, so one that could not be taken
 * back stays with the player even when a corrected result no longer earns it, and one the partner refused is owed.
 */
function InsuranceOpenItems({ wl }: { wl: string }) {
  const { data, error } = useLoad(
    () =>
      api<{ items: OpenItem[] }>(
        'GET',
        `/admin/insurance-open-items?white_label_id=${encodeURIComponent(wl)}`,
      ),
    [wl],
  );
  return (
    <div data-section="insurance-open-items">
      <h3>Insurance refunds to settle by hand</h3>
      <ErrorBox error={error} />
      {(data?.items ?? []).length === 0 ? (
        <p>None.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>bet</th>
              <th>insurance</th>
              <th>player</th>
              <th>refund</th>
              <th>open item</th>
              <th>since</th>
            </tr>
          </thead>
          <tbody>
            {(data?.items ?? []).map((o) => (
              <tr key={o.insurance_id} data-open-item={o.insurance_id}>
                <td>
                  <code>{o.bet_id}</code>
                </td>
                <td>
                  <code>{o.insurance_id.slice(0, 8)}</code>
                </td>
                <td>{o.player_id}</td>
                <td>
                  {o.amount} {o.currency_code}
                </td>
                <td data-field="kind">{OPEN_ITEM_KIND[o.kind]}</td>
                <td>{fmtTime(o.since)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function CreateForm({ kind, onCreated }: { kind: Kind; onCreated: () => void }) {
  const [player, setPlayer] = useState('');
  const [players, setPlayers] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [amount, setAmount] = useState('');
  const [expires, setExpires] = useState('');
  const [name, setName] = useState('');
  const [multiplier, setMultiplier] = useState('1.1');
  const [quantity, setQuantity] = useState('100');
  const [bulkResult, setBulkResult] = useState('');
  const act = useAction();
  const create = () =>
    act.run(async () => {
      if (kind === 'freebets') {
        await api('POST', '/freebet/create', {
          player_id: player,
          currency_code: currency,
          amount,
          conditions: SINGLE,
          ...expiry(expires),
        });
      } else if (kind === 'insurances') {
        await api('POST', '/insurance/create', {
          player_id: player,
          currency_code: currency,
          type: 'amount',
          amount,
          conditions: SINGLE,
          ...expiry(expires),
        });
      } else {
        await api('POST', '/bet-boosts', {
          name,
          multiplier,
          quantity: Number(quantity),
          player_id: player || null,
          ...expiry(expires),
        });
      }
      onCreated();
    });
  const bulk = () =>
    act.run(async () => {
      const ids = players.split(/[\s,]+/).filter(Boolean);
      const r = await api<{ items: Array<{ status: number }> }>('POST', '/freebet/create/bulk', {
        items: ids.map((player_id) => ({
          player_id,
          currency_code: currency,
          amount,
          conditions: SINGLE,
          ...expiry(expires),
        })),
      });
      const ok = r.items.filter((i) => i.status < 300).length;
      setBulkResult(`${ok} of ${ids.length} created`);
      onCreated();
    });
  const noun = kind === 'boosts' ? 'boost' : kind.slice(0, -1);
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        create();
      }}
    >
      <label>
        Player id{kind === 'boosts' ? ' (empty: every player)' : ''}
        <input name="player_id" value={player} onInput={field(setPlayer)} />
      </label>
      {kind === 'boosts' ? (
        <>
          <label>
            Name
            <input name="name" value={name} onInput={field(setName)} />
          </label>
          <label>
            Multiplier
            <input name="multiplier" value={multiplier} onInput={field(setMultiplier)} />
          </label>
          <label>
            Bets
            <input name="quantity" value={quantity} onInput={field(setQuantity)} />
          </label>
        </>
      ) : (
        <>
          <label>
            Amount
            <input name="amount" value={amount} onInput={field(setAmount)} />
          </label>
          <label>
            Currency
            <input name="currency_code" value={currency} onInput={field(setCurrency)} />
          </label>
        </>
      )}
      <label>
        Expires (optional)
        <input name="expires_at" type="datetime-local" value={expires} onInput={field(setExpires)} />
      </label>
      <button type="submit" disabled={act.busy}>
        Create {noun}
      </button>
      {kind === 'freebets' && (
        <>
          <label>
            Bulk: player ids
            <textarea name="players" rows={2} value={players} onInput={field(setPlayers)} />
          </label>
          <button type="button" disabled={act.busy} onClick={bulk}>
            Create for each player
          </button>
          {bulkResult && <span class="ok">{bulkResult}</span>}
        </>
      )}
      <ErrorBox error={act.error} />
    </form>
  );
}
