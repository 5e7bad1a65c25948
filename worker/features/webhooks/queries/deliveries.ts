import type { Database } from "../../../platform/db/database";

/** CONTRACT PLACEHOLDER (the delivery engine's queries). */
export function deliveryQueries(_db: Database) {
  return {};
}
