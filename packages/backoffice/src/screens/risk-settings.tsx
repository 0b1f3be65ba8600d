import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorBox, useLoad } from '../ui.js';
import { Delays } from './risk/bet-delays.js';
import { Margins } from './risk/cash-out-margins.js';
import type { Delay, Group, Limit } from './risk/fields.js';
import { Limits } from './risk/liability-limits.js';
import { Shading } from './risk/odds-shading.js';
import { Changes } from './risk/risk-changes.js';
import { Groups } from './risk/risk-groups.js';

export { checkDecimal } from './risk/fields.js';

interface Settings {
  limits: Limit[];
  groups: Group[];
  delays: Delay[];
}

/**
 * Risk settings: liability limits per white label and market type, risk groups and their stake factors, bet delays
 * by level, cash-out margins, the odds shading has lowered — each change checked here, checked again by the server
 * (which names the field), audited, and listed under "Changes".
 */
export function RiskSettings(_: { tab?: string | undefined }) {
  const settings = useLoad(() => api<Settings>('GET', '/admin/risk/settings'));
  const white = useLoad(() =>
    api<{ white_labels: Array<{ id: string; name: string }> }>('GET', '/admin/white-labels'),
  );
  const names = new Map((white.data?.white_labels ?? []).map((w) => [w.id, w.name]));
  const [audit, setAudit] = useState(0);
  const changed = () => {
    settings.reload();
    setAudit((n) => n + 1);
  };
  return (
    <>
      <ErrorBox error={settings.error || white.error} />
      <Limits
        limits={settings.data?.limits ?? []}
        whiteLabels={white.data?.white_labels ?? []}
        names={names}
        onChange={changed}
      />
      <Groups groups={settings.data?.groups ?? []} onChange={changed} />
      <Delays delays={settings.data?.delays ?? []} onChange={changed} />
      <Margins names={names} whiteLabels={white.data?.white_labels ?? []} onChange={changed} />
      <Shading />
      <Changes key={audit} />
    </>
  );
}
