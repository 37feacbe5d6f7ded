import { randomBytes } from 'node:crypto';
import { ADMINISTRATOR, builtInRoles } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.ts';
import type { Config } from '../config.ts';
import { pgArrayLiteral } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';

export interface FirstAdministrator {
  email: string;
  /** Set when the password was generated: shown once, never stored in clear. */
  generatedPassword?: string;
}

/**
 * Makes sure the built-in roles exist and hold what the code says they hold
 * (Administrator every permission; Editor and Viewer every data permission,
 * or its reads and exports), also the permissions of entities added by later
 * versions: nobody can change a built-in role, so its stored permissions are
 * only ever the code's. On the first start of a database without users, it
 * creates the first administrator.
 */
export async function bootstrapAccounts(database: Database, config: Config): Promise<FirstAdministrator | undefined> {
  return database.db.transaction(async (tx) => {
    for (const role of builtInRoles) {
      await database.rows(
        sql`insert into roles (name, description, permissions, built_in)
          values (${role.name}, ${role.description}, ${pgArrayLiteral(role.permissions)}::text[], true)
          on conflict (name) do update set built_in = true, permissions = excluded.permissions`,
        tx,
      );
    }
    const [anyone] = await database.rows(sql`select 1 from users limit 1`, tx);
    if (anyone) return undefined;
    const email = config.adminEmail ?? 'admin@example.com';
    const generatedPassword = config.adminPassword ? undefined : randomBytes(15).toString('base64url');
    const passwordHash = await hashPassword(config.adminPassword ?? (generatedPassword as string));
    const [user] = (await database.rows<{ id: number }>(
      sql`insert into users (email, first_name, last_name, status, role_id)
        select ${email}, 'Admin', null, 'active', id from roles where name = ${ADMINISTRATOR}
        returning id`,
      tx,
    )) as [{ id: number }];
    await database.rows(
      sql`insert into user_credentials (user_id, password_hash) values (${user.id}, ${passwordHash})`,
      tx,
    );
    return { email, generatedPassword };
  });
}
