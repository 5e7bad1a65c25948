/**
 * Applies the migrations in migrations/ to a libSQL/Turso database: the libSQL counterpart of
 * `wrangler d1 migrations apply`. Run with `npm run db:migrate:libsql` and LIBSQL_URL (and
 * LIBSQL_AUTH_TOKEN for Turso) in the environment. drizzle's migrator records what it applied
 * in __drizzle_migrations, so running it again applies only what is new.
 */
import { fileURLToPath } from "node:url";
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../../migrations", import.meta.url));

export async function migrateLibsql(url: string, authToken?: string): Promise<void> {
  const client = createClient({ url, authToken: authToken || undefined });
  try {
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.LIBSQL_URL;
  if (!url) {
    console.error("Set LIBSQL_URL (e.g. libsql://<db>.turso.io or file:local.db) to migrate a libSQL database.");
    process.exit(1);
  }
  await migrateLibsql(url, process.env.LIBSQL_AUTH_TOKEN);
  console.log(`Migrations applied to ${url.replace(/\?.*$/, "")}`);
}
