import { createClient } from "@libsql/client/web";
import { drizzle as drizzleD1 } from "drizzle-orm/d1";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql/web";
import type { Database } from "./database";

export type DatabaseBindings = {
  DB: D1Database;
  LIBSQL_URL?: string;
  LIBSQL_AUTH_TOKEN?: string;
};

/** The database, or why the configured one cannot be used (a LIBSQL_URL the worker cannot open). */
export type OpenedDatabase = { driver: "d1" | "libsql" } & ({ db: Database; problem: null } | { db: null; problem: string });

/**
 * D1 (binding DB) by default; libSQL/Turso when LIBSQL_URL is set. No schema is passed: the
 * repository uses the query builder only, and building drizzle's relational map on every
 * request would be wasted work.
 *
 * A LIBSQL_URL the worker's (web) client cannot use, a `file:` URL or a typo, is not thrown
 * here, where it would fail every request, pages included: it is returned as the problem, which
 * /api/health reports (503) and every use of the database throws.
 */
export function openDatabase(env: DatabaseBindings): OpenedDatabase {
  const url = env.LIBSQL_URL?.trim();
  if (url) {
    try {
      const client = createClient({ url, authToken: env.LIBSQL_AUTH_TOKEN || undefined });
      return { db: drizzleLibsql(client), driver: "libsql", problem: null };
    } catch (error) {
      return { db: null, driver: "libsql", problem: libsqlUrlProblem(url, error) };
    }
  }
  return { db: drizzleD1(env.DB), driver: "d1", problem: null };
}

/** Why LIBSQL_URL cannot be used, without its value (it may carry a token). */
function libsqlUrlProblem(url: string, error: unknown): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "file") {
    return "LIBSQL_URL is a file: URL, which a Worker cannot open: serve the file with `turso dev --db-file <file>` and use LIBSQL_URL=http://127.0.0.1:8080";
  }
  const reason = error instanceof Error ? error.message.replace(url, "<LIBSQL_URL>").slice(0, 200) : "it is not a URL";
  return `LIBSQL_URL cannot be used (${reason}); use libsql://, https:// or http:// (turso dev)`;
}
