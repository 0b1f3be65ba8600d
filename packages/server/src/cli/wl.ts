import { OPTIONAL_CALLBACKS } from '@bookie/contracts/optional-callback-names';
import { Command } from 'commander';
import { action, EXIT } from './io.js';
import { databaseOptions } from './options.js';
import { remoteOptions } from './remote.js';
import type { WlFlags } from './wl-run.js';

/** The implementation, loaded when a `bookie wl` command runs (not for its help). */
const run = () => import('./wl-run.js');

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];

type Flags = WlFlags;

/** Commander usage errors (unknown option, missing argument) exit 2, like bad input. */
function strict(cmd: Command): Command {
  return cmd.showHelpAfterError('(add --help for usage)').exitOverride((err) => {
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  });
}

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
    ).action(action(async (o: WlFlags) => (await run()).create(o))),
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
    ).action(action(async (id: string, o: WlFlags) => (await run()).update(id, o))),
  );

  wl.addCommand(
    strict(
      dataOptions(
        new Command('show')
          .description('show a white label, its signing secret and credentials')
          .argument('<id>'),
      ),
    ).action(action(async (id: string, o: Flags) => (await run()).show(id, o))),
  );

  wl.addCommand(
    strict(dataOptions(new Command('list').description('list white labels'))).action(
      action(async (o: Flags) => (await run()).list(o)),
    ),
  );

  wl.addCommand(
    strict(
      dataOptions(
        new Command('add-credential')
          .description('add a client credential; prints client_id and client_secret (shown once)')
          .argument('<id>', 'white label id'),
      ),
    ).action(action(async (id: string, o: Flags) => (await run()).addCredentialTo(id, o))),
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
      action(async (id: string, clientId: string, o: Flags) =>
        (await run()).revokeCredentialOf(id, clientId, o),
      ),
    ),
  );

  wl.addCommand(
    strict(
      dataOptions(
        new Command('add-certificate')
          .description(
            'bind a client certificate (PEM) to the white label: with it alone the partner reads the feed (/all, /log, /refetch)',
          )
          .argument('<id>', 'white label id')
          .requiredOption('--cert <file>', 'the client certificate, PEM'),
      ),
    ).action(
      action(async (id: string, o: Flags & { cert: string }) => (await run()).addCertificateTo(id, o)),
    ),
  );

  wl.addCommand(
    strict(
      dataOptions(
        new Command('revoke-certificate')
          .description('revoke a bound client certificate; it opens nothing from the next request on')
          .argument('<id>', 'white label id')
          .argument('<fingerprint>', 'SHA-256 fingerprint (hex, colons allowed)'),
      ),
    ).action(
      action(async (id: string, fingerprint: string, o: Flags) =>
        (await run()).revokeCertificateOf(id, fingerprint, o),
      ),
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
    ).action(action(async (id: string, o: Flags & { grace?: string }) => (await run()).rotateSecret(id, o))),
  );
  return wl;
}
