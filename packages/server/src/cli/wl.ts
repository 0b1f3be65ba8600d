import { readFileSync } from 'node:fs';
import {
  CreateWhiteLabelBody,
  OPTIONAL_CALLBACKS,
  type OptionalCallback,
  UpdateWhiteLabelBody,
} from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { Command } from 'commander';
import { systemClock } from '../app/clock.js';
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
import { type DatabaseFlags, withDatabase } from './database.js';
import { action, EXIT, printJson } from './io.js';
import { callAdmin, type RemoteFlags, remoteOptions } from './remote.js';
import { databaseOptions } from './start.js';

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

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];

interface WlFlags extends DatabaseFlags, RemoteFlags {
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

/** Commander usage errors (unknown option, missing argument) exit 2, like bad input. */
function strict(cmd: Command): Command {
  return cmd.showHelpAfterError('(add --help for usage)').exitOverride((err) => {
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  });
}

type Flags = DatabaseFlags & RemoteFlags;
const wlPath = (id: string) => `/admin/white-labels/${encodeURIComponent(id)}`;

/** The database options, and `--url`/`--admin-token` to act through a running server's admin API. */
function dataOptions(cmd: Command): Command {
  return remoteOptions(databaseOptions(cmd));
}

function settingOptions(cmd: Command, create: boolean): Command {
  return cmd
    .option('--mode <mode>', 'turnkey | mts | advisory (default turnkey)')
    .option('--callback-url <url>', 'base URL of the partner callback server ("none" to clear)')
    .option('--allow <address>', 'allowed IPv4/IPv6 address or CIDR; repeat, or comma-separate', collect)
    .option(
      '--allow-origin <origin>',
      'web origin allowed to embed the betting frame (CORS), e.g. https://casino.example; repeat, or ' +
        'comma-separate ("none" clears)',
      collect,
    )
    .option('--min-stake <amount>', 'minimum stake, decimal ("none" = no limit)')
    .option('--max-stake <amount>', 'maximum stake, decimal ("none" = no limit)')
    .option('--max-payout <amount>', 'maximum payout, decimal ("none" = no limit)')
    .option('--bet-interval <seconds>', 'seconds a player waits between bets')
    .option('--bet-delay <seconds>', 'seconds a bet waits before acceptance')
    .option(
      create ? '--no-signing' : '--signing',
      create ? 'do not sign callbacks' : 'sign callbacks (Standard Webhooks signature)',
    )
    .option(
      create ? '--signing' : '--no-signing',
      create ? 'sign callbacks (the default)' : 'stop signing callbacks',
    )
    .option('--insurance-cancel', 'send /bet/insurances/cancel (an optional callback; on by default)')
    .option(
      '--no-insurance-cancel',
      'do not send /bet/insurances/cancel (a refund a corrected result no longer earns then stays with the player)',
    )
    .option(
      '--announce <callbacks>',
      `optional callbacks the partner implements: ${OPTIONAL_CALLBACKS.join(', ')}; repeat, or comma-separate ` +
        '(heartbeat is sent only when announced; announcing again forgets a 404 Bookie learnt)',
      collect,
    )
    .option(
      '--withdraw <callbacks>',
      'optional callbacks the partner does not implement (same names); Bookie then never relies on them',
      collect,
    );
}

/**
 * `bookie wl create|update|show|list|add-credential|revoke-credential|rotate-secret`: white labels and their
 * credentials, on the database directly (same use cases as the admin API).
 */
export function wlCommand(): Command {
  const wl = strict(new Command('wl').description('manage white labels (partners) and their credentials'));

  wl.addCommand(
    strict(
      dataOptions(
        settingOptions(
          new Command('create')
            .description('create a white label; prints id, client_id and client_secret (shown once)')
            .requiredOption('--name <name>', 'display name')
            .requiredOption('--currency <code>', 'accepted currency, e.g. EUR; repeat for several', collect),
          true,
        ),
      ),
    ).action(
      action(async (o: WlFlags) => {
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
      }),
    ),
  );

  wl.addCommand(
    strict(
      dataOptions(
        settingOptions(
          new Command('update')
            .description(
              'change a white label (only the options given; --currency and --allow replace the lists)',
            )
            .argument('<id>', 'white label id')
            .option('--name <name>', 'display name')
            .option(
              '--currency <code>',
              'accepted currency; repeat for several (replaces the list)',
              collect,
            ),
          false,
        ),
      ),
    ).action(
      action(async (id: string, o: WlFlags) => {
        const changes = bodyOf(o);
        if (Object.keys(changes).length === 0) throw validationError('options', 'nothing to change');
        await namingFlags(async () => {
          checkSchema(UpdateWhiteLabelBody, changes);
          toChanges(changes);
        });
        printJson(
          o.url
            ? await callAdmin(o, 'PATCH', wlPath(id), { body: changes })
            : await withTenancy(o, (deps) =>
                namingFlags(() => updateWhiteLabel(deps, { id, changes }, 'cli')),
              ),
        );
      }),
    ),
  );

  wl.addCommand(
    strict(
      dataOptions(
        new Command('show')
          .description('show a white label, its signing secret and credentials')
          .argument('<id>'),
      ),
    ).action(
      action(async (id: string, o: Flags) => {
        printJson(
          o.url
            ? await callAdmin(o, 'GET', wlPath(id))
            : await withTenancy(o, (deps) => showWhiteLabel(deps, id)),
        );
      }),
    ),
  );

  wl.addCommand(
    strict(dataOptions(new Command('list').description('list white labels'))).action(
      action(async (o: Flags) => {
        printJson(
          o.url
            ? await callAdmin(o, 'GET', '/admin/white-labels')
            : { white_labels: await withTenancy(o, (deps) => listWhiteLabels(deps)) },
        );
      }),
    ),
  );

  wl.addCommand(
    strict(
      dataOptions(
        new Command('add-credential')
          .description('add a client credential; prints client_id and client_secret (shown once)')
          .argument('<id>', 'white label id'),
      ),
    ).action(
      action(async (id: string, o: Flags) => {
        printJson(
          o.url
            ? await callAdmin(o, 'POST', `${wlPath(id)}/credentials`)
            : await withTenancy(o, (deps) => addCredential(deps, { whiteLabelId: id }, 'cli')),
        );
      }),
    ),
  );

  wl.addCommand(
    strict(
      dataOptions(
        new Command('revoke-credential')
          .description('revoke a client credential; its tokens are refused from the next request on')
          .argument('<id>', 'white label id')
          .argument('<client_id>', 'client id to revoke'),
      ),
    ).action(
      action(async (id: string, clientId: string, o: Flags) => {
        printJson(
          o.url
            ? await callAdmin(o, 'POST', `${wlPath(id)}/credentials/${encodeURIComponent(clientId)}/revoke`)
            : await withTenancy(o, (deps) => revokeCredential(deps, { whiteLabelId: id, clientId }, 'cli')),
        );
      }),
    ),
  );

  wl.addCommand(
    strict(
      databaseOptions(
        new Command('add-certificate')
          .description(
            'bind a client certificate (PEM) to the white label: with it alone the partner reads the feed (/all, /log, /refetch)',
          )
          .argument('<id>', 'white label id')
          .requiredOption('--cert <file>', 'the client certificate, PEM'),
      ),
    ).action(
      action(async (id: string, o: DatabaseFlags & { cert: string }) => {
        let pem: string;
        try {
          pem = readFileSync(o.cert, 'utf8');
        } catch (err) {
          throw validationError('--cert', `cannot read ${o.cert}: ${(err as Error).message}`);
        }
        printJson(await withTenancy(o, (deps) => addCertificate(deps, { whiteLabelId: id, pem }, 'cli')));
      }),
    ),
  );

  wl.addCommand(
    strict(
      databaseOptions(
        new Command('revoke-certificate')
          .description('revoke a bound client certificate; it opens nothing from the next request on')
          .argument('<id>', 'white label id')
          .argument('<fingerprint>', 'SHA-256 fingerprint (hex, colons allowed)'),
      ),
    ).action(
      action(async (id: string, fingerprint: string, o: DatabaseFlags) => {
        printJson(
          await withTenancy(o, (deps) => revokeCertificate(deps, { whiteLabelId: id, fingerprint }, 'cli')),
        );
      }),
    ),
  );

  wl.addCommand(
    strict(
      dataOptions(
        new Command('rotate-secret')
          .description(
            'rotate the callback signing secret; the previous one keeps signing for the grace period',
          )
          .argument('<id>', 'white label id')
          .option('--grace <seconds>', 'grace period (default $SIGNING_SECRET_GRACE_S or 86400; 0 = none)'),
      ),
    ).action(
      action(async (id: string, o: Flags & { grace?: string }) => {
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
      }),
    ),
  );
  return wl;
}
