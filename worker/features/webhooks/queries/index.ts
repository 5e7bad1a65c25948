import type { Database } from "../../../platform/db/database";
import { deliveryQueries } from "./deliveries";
import { endpointQueries } from "./endpoints";

/**
 * The webhooks' queries (`repo.webhooks`): the endpoints the operator manages (endpoints.ts) and the
 * deliveries the consumer claims and records (deliveries.ts). The statements that store an event
 * with the change that caused it are record.ts, added by each writer to its own batch.
 */
export function createWebhookRepository(db: Database) {
  return { ...endpointQueries(db), ...deliveryQueries(db) };
}
