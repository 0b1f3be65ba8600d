import { createUser } from './create-user.js';
import type { UsersDeps } from './deps.js';

/** The password of every test user. */
export const TEST_PASSWORD = 'correct horse battery staple';

/** A backoffice user to create in a test: its email, role and (for partner roles) white label. */
export interface TestUser {
  email: string;
  role: 'operator' | 'partner_admin' | 'partner_viewer';
  whiteLabelId?: string;
}

/** Creates these backoffice users with {@link TEST_PASSWORD}, one after another. */
export async function createTestUsers(deps: UsersDeps, users: TestUser[]): Promise<void> {
  for (const u of users) {
    await createUser(deps, { ...u, password: TEST_PASSWORD, actor: 'test' });
  }
}
