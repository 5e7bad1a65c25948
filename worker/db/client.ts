import { createClient } from "@libsql/client/web";
import { drizzle as drizzleD1 } from "drizzle-orm/d1";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql/web";
import type { Database } from "./database";

export type DatabaseBindings = {
  DB: D1Database;
  LIBSQL_URL?: string;
  LIBSQL_AUTH_TOKEN?: string;
};

export type OpenedDatabase = { db: Database; driver: "d1" | "libsql" };

/**
 * D1 (binding DB) by default; libSQL/Turso when LIBSQL_URL is set. No schema is passed: the
 * repository uses the query builder only, and building drizzle's relational map on every
 * request would be wasted work.
 */
export function openDatabase(env: DatabaseBindings): OpenedDatabase {
  if (env.LIBSQL_URL) {
    const client = createClient({ url: env.LIBSQL_URL, authToken: env.LIBSQL_AUTH_TOKEN || undefined });
    return { db: drizzleLibsql(client), driver: "libsql" };
  }
  return { db: drizzleD1(env.DB), driver: "d1" };
}
