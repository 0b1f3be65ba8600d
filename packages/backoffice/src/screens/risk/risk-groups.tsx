import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { money, odds } from '../../format.js';
import { DataTable, ErrorBox, Section, useAction } from '../../ui.js';
import { checkDecimal, Field, type Group, value } from './fields.js';

/** Risk groups and their stake factors and maximum payouts. */
export function Groups({ groups, onChange }: { groups: Group[]; onChange: () => void }) {
  const [name, setName] = useState('');
  const [factor, setFactor] = useState('');
  const [maxPayout, setMaxPayout] = useState('');
  const [problem, setProblem] = useState('');
  const act = useAction();
  return (
    <Section title="Risk groups and stake factors">
      <form
        class="filters"
        aria-label="Set a risk group"
        onSubmit={(e) => {
          e.preventDefault();
          const p =
            (/^[a-z0-9_-]{1,40}$/.test(name) ? '' : 'Name: 1–40 of a-z, 0-9, _ and -') ||
            checkDecimal(factor, 'Stake factor') ||
            (maxPayout.trim() ? checkDecimal(maxPayout, 'Max payout (EUR)') : '');
          setProblem(p);
          if (p) return;
          act.run(async () => {
            await api('PUT', '/admin/risk/groups', {
              name,
              stake_factor: factor.trim(),
              max_payout_eur: maxPayout.trim() || null,
            });
            onChange();
          });
        }}
      >
        <Field label="Group">
          <input name="group_name" value={name} onInput={value(setName)} />
        </Field>
        <Field label="Stake factor (0 blocks)">
          <input name="stake_factor" inputMode="decimal" value={factor} onInput={value(setFactor)} />
        </Field>
        <Field label="Max payout (EUR, optional)">
          <input name="max_payout_eur" inputMode="decimal" value={maxPayout} onInput={value(setMaxPayout)} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Save group
        </button>
      </form>
      <ErrorBox error={problem || act.error} />
      <DataTable
        head={
          <tr>
            <th scope="col">group</th>
            <th scope="col" class="num">
              stake factor
            </th>
            <th scope="col" class="num">
              max payout
            </th>
          </tr>
        }
      >
        {groups.map((g) => (
          <tr data-group={g.name}>
            <td>
              <button
                type="button"
                class="link"
                onClick={() => {
                  setName(g.name);
                  setFactor(g.stake_factor.replace(/\.?0+$/, ''));
                  setMaxPayout(g.max_payout_eur ?? '');
                }}
              >
                {g.name}
              </button>
            </td>
            <td class="num">× {odds(g.stake_factor)}</td>
            <td class="num">{money(g.max_payout_eur, 'EUR')}</td>
          </tr>
        ))}
      </DataTable>
    </Section>
  );
}
