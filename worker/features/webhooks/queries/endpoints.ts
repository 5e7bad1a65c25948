import type { Database } from "../../../platform/db/database";

/** CONTRACT PLACEHOLDER (the operator API's queries). */
export function endpointQueries(_db: Database) {
  return {};
}
