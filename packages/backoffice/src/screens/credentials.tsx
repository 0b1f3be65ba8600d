import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorBox, fmtTime, SecretOnce, Section, useAction, useLoad } from '../ui.js';
import type { WhiteLabel } from '../white-label.js';

/** Credentials: create (secret shown once), revoke, rotate (a new one, then the old one revoked). */
export function Credentials({ wl, readOnly }: { wl: string; readOnly: boolean }) {
  const { data, error, reload } = useLoad(() => api<WhiteLabel>('GET', `/admin/white-labels/${wl}`), [wl]);
  const [secret, setSecret] = useState<Record<string, string> | undefined>();
  const act = useAction();
  const create = () =>
    act.run(async () => {
      const c = await api<{ client_id: string; client_secret: string }>(
        'POST',
        `/admin/white-labels/${wl}/credentials`,
      );
      setSecret({ client_id: c.client_id, client_secret: c.client_secret });
      reload();
    });
  const revoke = (clientId: string) =>
    act.run(async () => {
      await api('POST', `/admin/white-labels/${wl}/credentials/${encodeURIComponent(clientId)}/revoke`);
      reload();
    });
  const rotate = (clientId: string) =>
    act.run(async () => {
      const c = await api<{ client_id: string; client_secret: string }>(
        'POST',
        `/admin/white-labels/${wl}/credentials`,
      );
      await api('POST', `/admin/white-labels/${wl}/credentials/${encodeURIComponent(clientId)}/revoke`);
      setSecret({ client_id: c.client_id, client_secret: c.client_secret, replaces: clientId });
      reload();
    });
  return (
    <Section title="OAuth credentials">
      <p class="hint">
        Your servers exchange a credential for a token at <code>POST /oauth/token</code> (client credentials).
      </p>
      <ErrorBox error={error || act.error} />
      {secret && <SecretOnce label="New credential" values={secret} />}
      {!readOnly && (
        <button type="button" onClick={create} disabled={act.busy}>
          Create credential
        </button>
      )}
      <table>
        <thead>
          <tr>
            <th>client_id</th>
            <th>created</th>
            <th>revoked</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(data?.credentials ?? []).map((c) => (
            <tr key={c.client_id} data-client-id={c.client_id}>
              <td>
                <code>{c.client_id}</code>
              </td>
              <td>{fmtTime(c.created_at)}</td>
              <td>{c.revoked_at ? fmtTime(c.revoked_at) : 'active'}</td>
              <td>
                {!readOnly && !c.revoked_at && (
                  <>
                    <button type="button" onClick={() => rotate(c.client_id)} disabled={act.busy}>
                      Rotate
                    </button>{' '}
                    <button
                      type="button"
                      class="danger"
                      onClick={() => revoke(c.client_id)}
                      disabled={act.busy}
                    >
                      Revoke
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
