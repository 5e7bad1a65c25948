import type { LibSQLDatabase } from "drizzle-orm/libsql";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";

/**
 * A drizzle database of either driver, which the repository takes. The run-result type differs
 * by driver (D1Result vs ResultSet) and is never read by the repository; both drivers' batch()
 * has libSQL's signature.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = BaseSQLiteDatabase<"async", any> & Pick<LibSQLDatabase, "batch">;
