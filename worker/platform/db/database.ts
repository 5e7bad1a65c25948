import type { LibSQLDatabase } from "drizzle-orm/libsql";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";

/**
 * A drizzle database of either driver, which the repository takes. The run-result type differs
 * by driver (D1Result vs ResultSet) and is never read by the repository; both drivers' batch()
 * has libSQL's signature.
 */
// biome-ignore lint/suspicious/noExplicitAny: the run-result type differs by driver and is never read (see above).
export type Database = BaseSQLiteDatabase<"async", any> & Pick<LibSQLDatabase, "batch">;
