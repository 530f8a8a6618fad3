// Headless set-up: `npm run user:create -- --email a@b.c --name "Ann" --role SuperAdmin [--password …]`.
// Without --password a strong one is generated and printed once.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, parseConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { buildApp } from '../app.js';
import { registerAccount } from '../users/accounts.js';
import { updateProfile } from '../users/repository.js';
import { createInvitation } from '../invitations/service.js';
import { countAuthUsers } from '../users/repository.js';

const argsSchema = z.object({
  email: z.string().min(3, '--email is required'),
  name: z.string().min(1, '--name is required'),
  role: z.enum(['user', 'admin', 'SuperAdmin']).default('user'),
  password: z.string().optional(),
});

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
    },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`);
    console.error(
      'Usage: npm run user:create -- --email EMAIL --name NAME [--role user|admin|SuperAdmin] [--password PW]',
    );
    return 2;
  }
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const db = openDatabase(config);
  // Building the app applies the migrations, exactly as a normal start would.
  const app = await buildApp({ config, db, serveWeb: false });
  try {
    const password = parsed.data.password ?? randomBytes(12).toString('base64url');
    const invitation =
      (await countAuthUsers(db.kysely)) > 0
        ? await createInvitation(db, { id: null as never, name: 'user:create' }, parsed.data.email)
        : undefined;
    const { userId } = await registerAccount(
      db,
      { name: parsed.data.name, email: parsed.data.email, password, invitationCode: invitation?.code },
      config.passwordMinLength,
    );
    await updateProfile(db.kysely, userId, {
      role: parsed.data.role,
      isSuperAdmin: parsed.data.role === 'SuperAdmin',
    });
    console.log(`Created ${parsed.data.role} ${parsed.data.email.trim().toLowerCase()} (id ${userId})`);
    if (!parsed.data.password) console.log(`Password: ${password}`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await app.close();
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
