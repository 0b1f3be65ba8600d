import { useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { ErrorBox, fmtTime, Section, useLoad } from '../ui.js';

/** One row of `GET /admin/audit-log`: who, what, on which subject, and the details. */
export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  subject: string;
  details: unknown;
}

/** The audit log, newest first: who, what, on what, before and after. */
export function AuditLog() {
  const [before, setBefore] = useState<string[]>([]);
  const cursor = before[before.length - 1];
  const { data, error } = useLoad(
    () =>
      api<{ items: AuditEntry[]; next: string | null }>(
        'GET',
        `/admin/audit-log${qs({ before: cursor, limit: '50' })}`,
      ),
    [cursor],
  );
  return (
    <Section title="Audit log">
      <ErrorBox error={error} />
      <table class="audit">
        <thead>
          <tr>
            <th>at</th>
            <th>who</th>
            <th>what</th>
            <th>subject</th>
            <th>details</th>
          </tr>
        </thead>
        <tbody>
          {(data?.items ?? []).map((a) => (
            <tr key={a.id}>
              <td>{fmtTime(a.at)}</td>
              <td>{a.actor}</td>
              <td>{a.action}</td>
              <td>{a.subject}</td>
              <td>
                <details>
                  <summary>show</summary>
                  <pre class="json">{JSON.stringify(a.details, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="paging">
        {before.length > 0 && (
          <button type="button" onClick={() => setBefore(before.slice(0, -1))}>
            Newer
          </button>
        )}
        {data?.next && (
          <button type="button" onClick={() => setBefore([...before, data.next as string])}>
            Older
          </button>
        )}
      </div>
    </Section>
  );
}
