import { userInfo } from 'node:os';
import { Command } from 'commander';
import { createUser } from '../modules/users/create-user.js';
import { usersDeps } from '../modules/users/deps.js';
import { resetPassword } from '../modules/users/reset-password.js';
import { systemClock } from '../platform/clock.js';
import { type DatabaseFlags, withDatabase } from './database.js';
import { action, printJson } from './io.js';
import { databaseOptions } from './options.js';
import { callAdmin, type RemoteFlags, remoteOptions } from './remote.js';

function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

/** The password of a command: `--password`, else `$BOOKIE_USER_PASSWORD`, else none (one is generated). */
function passwordOf(flag: string | undefined): string | undefined {
  return flag ?? (process.env.BOOKIE_USER_PASSWORD || undefined);
}

/**
 * `bookie user create|reset-password`: backoffice users (DECISIONS D53). `create` makes the first operator user
 * (or a partner user of a white label); both print the password when they generated it (shown once).
 */
export function userCommand(): Command {
  const cmd = new Command('user').description('backoffice users: create, reset a password');
  cmd.addCommand(
    remoteOptions(
      databaseOptions(
        new Command('create')
          .description('create a backoffice user; prints it, and the generated password when none is given')
          .requiredOption('--email <email>', 'login email')
          .requiredOption('--role <role>', 'operator | partner_admin | partner_viewer')
          .option('--white-label <id>', "the partner user's white label")
          .option(
            '--password <password>',
            'at least 12 characters (default: $BOOKIE_USER_PASSWORD, else generated)',
          ),
      ),
    ).action(
      action(
        async (
          o: DatabaseFlags &
            RemoteFlags & { email: string; role: string; whiteLabel?: string; password?: string },
        ) => {
          if (o.url) {
            const password = passwordOf(o.password);
            const body = {
              email: o.email,
              role: o.role,
              ...(o.whiteLabel ? { white_label_id: o.whiteLabel } : {}),
              ...(password ? { password } : {}),
            };
            printJson(await callAdmin(o, 'POST', '/admin/users', { body }));
            return;
          }
          await withDatabase(o, async (database, config) => {
            const password = passwordOf(o.password);
            const r = await createUser(usersDeps({ database, clock: systemClock, config }), {
              email: o.email,
              role: o.role,
              ...(o.whiteLabel ? { whiteLabelId: o.whiteLabel } : {}),
              ...(password ? { password } : {}),
              actor: cliActor(),
            });
            printJson(r);
          });
        },
      ),
    ),
  );
  cmd.addCommand(
    remoteOptions(
      databaseOptions(
        new Command('reset-password')
          .description(
            "set a user's password (generated when none is given), lift a lockout, end its sessions",
          )
          .requiredOption('--email <email>', 'login email')
          .option(
            '--password <password>',
            'at least 12 characters (default: $BOOKIE_USER_PASSWORD, else generated)',
          ),
      ),
    ).action(
      action(async (o: DatabaseFlags & RemoteFlags & { email: string; password?: string }) => {
        if (o.url) {
          const password = passwordOf(o.password);
          const body = { email: o.email, ...(password ? { password } : {}) };
          printJson(await callAdmin(o, 'POST', '/admin/users/reset-password', { body }));
          return;
        }
        await withDatabase(o, async (database, config) => {
          const password = passwordOf(o.password);
          const r = await resetPassword(usersDeps({ database, clock: systemClock, config }), {
            email: o.email,
            ...(password ? { password } : {}),
            actor: cliActor(),
          });
          printJson({
            user: r.user,
            sessions_ended: r.sessionsEnded,
            ...(r.password ? { password: r.password } : {}),
          });
        });
      }),
    ),
  );
  return cmd;
}
