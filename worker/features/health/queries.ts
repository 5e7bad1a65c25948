import { is, sql } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../../platform/db/database";
import * as schema from "../../platform/db/schema";
import { type UndeliveredSummary, undeliveredQueries, undeliveredSummary } from "../notifications/queries/undelivered";

/** Every table of the schema with every column, for the health check's schema probe. */
const TABLES = Object.values(schema).filter((value) => is(value, SQLiteTable));

export type HealthCheck = { missingSchema: string | null; undelivered: UndeliveredSummary | null };

export function createHealthRepository(db: Database) {
  return {
    /**
     * The health check's one database call: a batch of `select <every column> from <table>
     * limit 0` for every table of the schema, then the undelivered notifications. A missing
     * table or column fails the batch with a message naming it: resolved as `missingSchema`
     * (and `undelivered` null). Throws when the database cannot be reached.
     */
    async check(): Promise<HealthCheck> {
      const probes = TABLES.map((table) => {
        const { name, columns } = getTableConfig(table);
        return db.run(sql.raw(`select ${columns.map((column) => `"${column.name}"`).join(", ")} from "${name}" limit 0`));
      });
      try {
        const results = await db.batch([...undeliveredQueries(db), ...probes]);
        return { missingSchema: null, undelivered: undeliveredSummary(results[0], results[1]) };
      } catch (error) {
        // Only a missing table or column is an answer; anything else (unreachable) is thrown.
        const message =
          error instanceof Error ? `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}` : String(error);
        const missing = /no such (table|column): [\w.]+/.exec(message)?.[0];
        if (!missing) throw error;
        return { missingSchema: missing, undelivered: null };
      }
    },
  };
}
