import { api } from '../../api.js';
import { time } from '../../format.js';
import { DataTable, ErrorBox, Section, useLoad } from '../../ui.js';
import type { AuditEntry } from '../audit-log.js';

/** The audit log's risk changes, newest first. */
export function Changes() {
  const a = useLoad(() => api<{ items: AuditEntry[] }>('GET', '/admin/audit-log?limit=500'));
  const risk = (a.data?.items ?? []).filter((x) => x.action.startsWith('risk.')).slice(0, 30);
  return (
    <Section title="Changes (audit log)">
      <ErrorBox error={a.error} />
      <DataTable
        data-testid="risk-changes"
        head={
          <tr>
            <th scope="col">at</th>
            <th scope="col">who</th>
            <th scope="col">what</th>
            <th scope="col">change</th>
          </tr>
        }
      >
        {risk.map((x) => (
          <tr>
            <td>{time(x.at)}</td>
            <td>{x.actor}</td>
            <td>
              {x.action} · {x.subject}
            </td>
            <td>
              <code>{JSON.stringify(x.details)}</code>
            </td>
          </tr>
        ))}
      </DataTable>
    </Section>
  );
}
