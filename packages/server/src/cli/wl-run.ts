/**
 * What the `bookie wl` commands do (wl.ts declares them): loaded only when one of them runs, so that `bookie wl
 * --help` does not load the database, the use cases or the schemas.
 *
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { CreateWhiteLabelBody, type OptionalCallback, UpdateWhiteLabelBody } from '@bookie/contracts';
import { OPTIONAL_CALLBACKS } from '@bookie/contracts/optional-callback-names';
import { DomainError, validationError } from '@bookie/core';
import { addCredential } from '../modules/tenants/add-credential.js';
import { addCertificate, revokeCertificate } from '../modules/tenants/client-certificates.js';
import { createWhiteLabel } from '../modules/tenants/create-white-label.js';
import type { TenancyDeps } from '../modules/tenants/deps.js';
import { showWhiteLabel } from '../modules/tenants/get-white-label.js';
import { listWhiteLabels } from '../modules/tenants/list-white-labels.js';
import { revokeCredential } from '../modules/tenants/revoke-credential.js';
import { rotateSigningSecret } from '../modules/tenants/rotate-signing-secret.js';
import { updateWhiteLabel } from '../modules/tenants/update-white-label.js';
import { checkSchema } from '../modules/tenants/validate.js';
import { toChanges } from '../modules/tenants/white-label.js';
import { systemClock } from '../platform/clock.js';
import { type DatabaseFlags, withDatabase } from './database.js';
import { printJson } from './io.js';
import { callAdmin, type RemoteFlags } from './remote.js';

/** Opens the database like `bookie start` (flags, then environment), migrates, runs `fn`, closes. */
function withTenancy<T>(
  flags: DatabaseFlags,
  fn: (deps: TenancyDeps, grace: number) => Promise<T>,
): Promise<T> {
  return withDatabase(flags, (database, config) =>
    fn({ database, clock: systemClock }, config.auth.signingGraceS),
  );
}

/** Body fields → the options that set them, so that errors name what the operator typed. */
const FLAG_OF: Array<[RegExp, string]> = [
  [/^name$/, '--name'],
  [/^mode$/, '--mode'],
  [/^currencies(\[\d+\])?$/, '--currency'],
  [/^callback_url$/, '--callback-url'],
  [/^limits\.min_stake$/, '--min-stake'],
  [/^limits\.max_stake$/, '--max-stake'],
  [/^limits\.max_payout$/, '--max-payout'],
  [/^bet_interval$/, '--bet-interval'],
  [/^bet_delay$/, '--bet-delay'],
  [/^allowlist(\[\d+\])?$/, '--allow'],
  [/^allowed_origins(\[\d+\])?$/, '--allow-origin'],
];

async function namingFlags<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (
      err instanceof DomainError &&
      err.code === 'validation_error' &&
      typeof err.details?.field === 'string'
    ) {
      const field = err.details.field;
      const flag = FLAG_OF.find(([re]) => re.test(field))?.[1];
      if (flag) {
        const reason = err.message.startsWith(`${field}: `)
          ? err.message.slice(field.length + 2)
          : err.message;
        throw validationError(flag, reason);
      }
    }
    throw err;
  }
}

function seconds(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw validationError(flag, `expected whole seconds, got "${raw}"`);
  return Number(raw);
}

function limit(raw: string | undefined): string | null | undefined {
  if (raw === undefined) return undefined;
  return raw === 'none' ? null : raw;
}

export interface WlFlags extends DatabaseFlags, RemoteFlags {
  name?: string;
  mode?: string;
  currency?: string[];
  callbackUrl?: string;
  allow?: string[];
  allowOrigin?: string[];
  minStake?: string;
  maxStake?: string;
  maxPayout?: string;
  betInterval?: string;
  betDelay?: string;
  signing?: boolean;
  insuranceCancel?: boolean;
  announce?: string[];
  withdraw?: string[];
}

/** `--announce`/`--withdraw` values → the optional callbacks named (comma-separated or repeated). */
function callbackNames(flag: string, values: string[] | undefined): OptionalCallback[] {
  const names = (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim().replace(/-/g, '_'));
  for (const n of names) {
    if (!(OPTIONAL_CALLBACKS as readonly string[]).includes(n)) {
      throw validationError(
        flag,
        `unknown optional callback "${n}"; one of ${OPTIONAL_CALLBACKS.join(', ')}`,
      );
    }
  }
  return names.filter((n) => n !== '') as OptionalCallback[];
}

/** Options → a create or update body (only what was given). */
function bodyOf(o: WlFlags): UpdateWhiteLabelBody {
  const b: Record<string, unknown> = {};
  if (o.name !== undefined) b.name = o.name;
  if (o.mode !== undefined) b.mode = o.mode;
  if (o.currency !== undefined) b.currencies = o.currency;
  if (o.callbackUrl !== undefined) b.callback_url = o.callbackUrl === 'none' ? null : o.callbackUrl;
  if (o.allow !== undefined) b.allowlist = o.allow.flatMap((a) => a.split(',')).filter((a) => a !== '');
  if (o.allowOrigin !== undefined)
    b.allowed_origins = o.allowOrigin.flatMap((a) => a.split(',')).filter((a) => a !== '' && a !== 'none');
  const limits: Record<string, string | null> = {};
  for (const [k, v] of [
    ['min_stake', limit(o.minStake)],
    ['max_stake', limit(o.maxStake)],
    ['max_payout', limit(o.maxPayout)],
  ] as const) {
    if (v !== undefined) limits[k] = v;
  }
  if (Object.keys(limits).length > 0) b.limits = limits;
  const interval = seconds('--bet-interval', o.betInterval);
  if (interval !== undefined) b.bet_interval = interval;
  const delay = seconds('--bet-delay', o.betDelay);
  if (delay !== undefined) b.bet_delay = delay;
  if (o.signing !== undefined) b.signing_enabled = o.signing;
  if (o.insuranceCancel !== undefined) b.insurance_cancel_callbacks = o.insuranceCancel;
  const optional: Record<string, boolean> = {};
  for (const n of callbackNames('--announce', o.announce)) optional[n] = true;
  for (const n of callbackNames('--withdraw', o.withdraw)) optional[n] = false;
  if (Object.keys(optional).length > 0) b.optional_callbacks = optional;
  return b as UpdateWhiteLabelBody;
}

type Flags = DatabaseFlags & RemoteFlags;
const wlPath = (id: string) => `/admin/white-labels/${encodeURIComponent(id)}`;

/** `bookie wl create`. */
export async function create(o: WlFlags): Promise<void> {
  const body = bodyOf(o) as CreateWhiteLabelBody;
  // refuse bad input before opening the database (the use case checks again)
  await namingFlags(async () => {
    checkSchema(CreateWhiteLabelBody, body);
    toChanges(body);
  });
  if (!body.allowlist || body.allowlist.length === 0) {
    process.stderr.write(
      'warning: no --allow given: every partner call (OAuth token, feed, sessions) will be refused until ' +
        'the white label has an allowlist (bookie wl update <id> --allow <address or CIDR>)\n',
    );
  }
  const out = o.url
    ? await callAdmin(o, 'POST', '/admin/white-labels', { body })
    : await withTenancy(o, (deps) => namingFlags(() => createWhiteLabel(deps, body, 'cli')));
  printJson(out);
}

/** `bookie wl update`. */
export async function update(id: string, o: WlFlags): Promise<void> {
  const changes = bodyOf(o);
  if (Object.keys(changes).length === 0) throw validationError('options', 'nothing to change');
  await namingFlags(async () => {
    checkSchema(UpdateWhiteLabelBody, changes);
    toChanges(changes);
  });
  printJson(
    o.url
      ? await callAdmin(o, 'PATCH', wlPath(id), { body: changes })
      : await withTenancy(o, (deps) => namingFlags(() => updateWhiteLabel(deps, { id, changes }, 'cli'))),
  );
}

/** `bookie wl show`. */
export async function show(id: string, o: Flags): Promise<void> {
  printJson(
    o.url ? await callAdmin(o, 'GET', wlPath(id)) : await withTenancy(o, (deps) => showWhiteLabel(deps, id)),
  );
}

/** `bookie wl list`. */
export async function list(o: Flags): Promise<void> {
  printJson(
    o.url
      ? await callAdmin(o, 'GET', '/admin/white-labels')
      : { white_labels: await withTenancy(o, (deps) => listWhiteLabels(deps)) },
  );
}

/** `bookie wl add-credential`. */
export async function addCredentialTo(id: string, o: Flags): Promise<void> {
  printJson(
    o.url
      ? await callAdmin(o, 'POST', `${wlPath(id)}/credentials`)
      : await withTenancy(o, (deps) => addCredential(deps, { whiteLabelId: id }, 'cli')),
  );
}

/** `bookie wl revoke-credential`. */
export async function revokeCredentialOf(id: string, clientId: string, o: Flags): Promise<void> {
  printJson(
    o.url
      ? await callAdmin(o, 'POST', `${wlPath(id)}/credentials/${encodeURIComponent(clientId)}/revoke`)
      : await withTenancy(o, (deps) => revokeCredential(deps, { whiteLabelId: id, clientId }, 'cli')),
  );
}

/** `bookie wl add-certificate`. */
export async function addCertificateTo(id: string, o: Flags & { cert: string }): Promise<void> {
  let pem: string;
  try {
    pem = readFileSync(o.cert, 'utf8');
  } catch (err) {
    throw validationError('--cert', `cannot read ${o.cert}: ${(err as Error).message}`);
  }
  printJson(
    o.url
      ? await callAdmin(o, 'POST', `${wlPath(id)}/certificates`, { body: { pem } })
      : await withTenancy(o, (deps) => addCertificate(deps, { whiteLabelId: id, pem }, 'cli')),
  );
}

/** `bookie wl revoke-certificate`. */
export async function revokeCertificateOf(id: string, fingerprint: string, o: Flags): Promise<void> {
  printJson(
    o.url
      ? await callAdmin(o, 'DELETE', `${wlPath(id)}/certificates/${encodeURIComponent(fingerprint)}`)
      : await withTenancy(o, (deps) => revokeCertificate(deps, { whiteLabelId: id, fingerprint }, 'cli')),
  );
}

/** `bookie wl rotate-secret`. */
export async function rotateSecret(id: string, o: Flags & { grace?: string }): Promise<void> {
  const grace = seconds('--grace', o.grace);
  if (o.url) {
    const body = grace === undefined ? {} : { grace_seconds: grace };
    printJson(await callAdmin(o, 'POST', `${wlPath(id)}/signing-secret/rotate`, { body }));
    return;
  }
  printJson(
    await withTenancy(o, (deps, defaultGrace) =>
      rotateSigningSecret(deps, { whiteLabelId: id, graceSeconds: grace ?? defaultGrace }, 'cli'),
    ),
  );
}
