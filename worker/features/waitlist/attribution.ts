import type { WaitlistEntry } from "../../platform/db/schema";
import type { Attribution } from "../../shared/waitlist";
import { ATTRIBUTION_COLUMNS } from "./queries/join";

/** A stored entry's attribution, by field (the operator API's JSON names them as the fields). */
export function attributionOf(entry: WaitlistEntry): Attribution {
  return Object.fromEntries(ATTRIBUTION_COLUMNS.map(({ field, key }) => [field, entry[key]])) as Attribution;
}
