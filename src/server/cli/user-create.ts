// Headless set-up: `npm run user:create -- --email a@b.c --name "Ann" [--role SuperAdmin] [--password …]`.
// Without --role: SuperAdmin while no account exists, else user. Without --password a strong one is generated
// and printed once. The account, its profile and its role are created in one transaction: a failure leaves
// nothing behind. Exit codes: 0 created, 1 refused (bad e-mail, weak password, e-mail in use, ...), 2 usage.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, parseConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { checkNewAccount, createAccount } from '../users/accounts.js';

const USAGE =
  'Usage: npm run user:create -- --email EMAIL --name NAME [--role user|admin|SuperAdmin] [--password PASSWORD]';

const argsSchema = z.object({
  email: z.string({ error: '--email is required' }).trim().min(1, '--email is required'),
  name: z.string({ error: '--name is required' }).trim().min(1, '--name is required'),
  role: z
    .enum(['user', 'admin', 'SuperAdmin'], { error: '--role must be user, admin or SuperAdmin' })
    .optional(),
  password: z.string().optional(),
});

function usageError(problems: string[]): number {
  for (const problem of problems) console.error(problem);
  console.error(USAGE);
  return 2;
}

async function main(): Promise<number> {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
        password: { type: 'string' },
      },
    }));
  } catch (error) {
    // Unknown options, stray arguments, an option without its value.
    return usageError([error instanceof Error ? error.message : String(error)]);
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) return usageError(parsed.error.issues.map((issue) => issue.message));

  const config = parseConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const password = parsed.data.password ?? randomBytes(12).toString('base64url');
  const input = { name: parsed.data.name, email: parsed.data.email, password };
  try {
    checkNewAccount(input, config.passwordMinLength);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  const db = openDatabase(config);
  try {
    // Building the app applies the migrations, exactly as a normal start would (loaded only now: the whole
    // app takes a while to load, and a mistyped command should answer at once).
    const { buildApp } = await import('../app.js');
    const app = await buildApp({ config, db, serveWeb: false });
    await app.close();
    const created = await createAccount(db, input, config.passwordMinLength, parsed.data.role);
    console.log(`Created ${created.role} ${created.email} (id ${created.userId})`);
    if (!parsed.data.password) console.log(`Password: ${password}`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
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
