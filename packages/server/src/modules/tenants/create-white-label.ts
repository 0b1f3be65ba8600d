import { type CreatedWhiteLabel, CreateWhiteLabelBody } from '@bookie/contracts';
import { inTransaction } from '../../db/transaction.js';
import { newCredentialRow } from './add-credential.js';
import type { Actor, TenancyDeps } from './deps.js';
import { newId, newSigningSecret } from './secrets.js';
import { audit, insertCredential, insertWhiteLabel } from './tenants.repo.js';
import { checkSchema } from './validate.js';
import { toChanges, toWhiteLabel, whiteLabelView } from './white-label.js';

/**
 * Creates a white label with its first client credential and a fresh signing secret (signing on unless
 * `signing_enabled: false`). The client secret is returned once; only its hash is stored.
 *
 * @throws DomainError validation_error naming the field.
 */
export async function createWhiteLabel(
  deps: TenancyDeps,
  input: CreateWhiteLabelBody,
  actor: Actor = 'admin-api',
): Promise<CreatedWhiteLabel> {
  checkSchema(CreateWhiteLabelBody, input);
  const changes = toChanges(input);
  const now = new Date(deps.clock.now());
  const id = newId();
  return inTransaction(deps.database.db, async (tx) => {
    const row = await insertWhiteLabel(tx, {
      id,
      name: changes.name ?? input.name,
      mode: changes.mode ?? 'turnkey',
      currencies: changes.currencies ?? input.currencies,
      callback_url: changes.callback_url ?? null,
      min_stake: changes.min_stake ?? null,
      max_stake: changes.max_stake ?? null,
      max_payout: changes.max_payout ?? null,
      bet_interval_s: changes.bet_interval_s ?? 0,
      bet_delay_s: changes.bet_delay_s ?? 0,
      allowlist: changes.allowlist ?? [],
      allowed_origins: changes.allowed_origins ?? [],
      signing_enabled: changes.signing_enabled ?? true,
      insurance_cancel_callbacks: changes.insurance_cancel_callbacks ?? true,
      optional_callbacks: JSON.stringify(changes.optional_callbacks ?? {}),
      signing_secret: newSigningSecret(),
      created_at: now,
      updated_at: now,
    });
    const { row: credRow, secret } = newCredentialRow(id, now);
    const cred = await insertCredential(tx, credRow);
    await audit(tx, {
      at: now,
      actor,
      action: 'white_label.create',
      subject: `white_label:${id}`,
      details: JSON.stringify({ name: row.name, client_id: cred.client_id }),
    });
    return {
      id,
      client_id: cred.client_id,
      client_secret: secret,
      white_label: whiteLabelView(toWhiteLabel(row), { withSecret: true, credentials: [cred] }),
    };
  });
}
