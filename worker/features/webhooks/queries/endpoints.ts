import { and, desc, eq, getTableName, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { type WebhookEndpoint, webhookDeliveries, webhookEndpoints, webhookEvents } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/** An endpoint row with its deliveries waiting and dead (the operator API's list and detail). */
export type EndpointWithCounts = WebhookEndpoint & { pending: number; dead: number };

/** One delivery as the console lists it, with its event's type. */
export type EndpointDelivery = typeof webhookDeliveries.$inferSelect & { eventType: string };

/** A new endpoint: its secret already sealed (features/webhooks/secrets.ts). */
export type NewEndpoint = { name: string; url: string; kind: "standard" | "slack"; events: string[]; secret: string };

/** What a change may set on an endpoint (the kind never changes). */
export type EndpointChange = Partial<
  Pick<WebhookEndpoint, "name" | "url" | "secret" | "previousSecret" | "previousSecretUntil" | "enabled" | "disabledReason" | "disabledAt">
> & { events?: string[]; failureRun?: number; failingSince?: string | null; pausedUntil?: string | null };

/** The endpoint's id, qualified by its table: a select from one table names its columns bare, which a subquery on deliveries would read as its own. */
const endpointId = sql.raw(`"${getTableName(webhookEndpoints)}"."id"`);
const countOf = (status: "pending" | "dead") =>
  sql<number>`(select count(*) from ${webhookDeliveries} where ${webhookDeliveries.endpointId} = ${endpointId} and ${webhookDeliveries.status} = ${status})`;
const counts = { pending: countOf("pending"), dead: countOf("dead") };

const withCounts = (row: WebhookEndpoint & { pending: number; dead: number }): EndpointWithCounts => ({
  ...row,
  pending: Number(row.pending),
  dead: Number(row.dead),
});

/** The operator API's queries (routes.ts): the endpoints, each one's deliveries, and its dead letters' retry. */
export function endpointQueries(db: Database) {
  const deliveriesOf = (endpointId: number, status: "dead" | null, limit: number) =>
    db
      .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(
        status
          ? and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, status))
          : eq(webhookDeliveries.endpointId, endpointId),
      )
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit);

  return {
    /** Every endpoint, oldest first, with its deliveries waiting and dead. */
    async endpoints(): Promise<EndpointWithCounts[]> {
      const rows = await db
        .select({ ...getColumns(), ...counts })
        .from(webhookEndpoints)
        .orderBy(webhookEndpoints.id);
      return rows.map(withCounts);
    },

    /** One endpoint with its counts, or null. */
    async endpoint(id: number): Promise<EndpointWithCounts | null> {
      const [row] = await db
        .select({ ...getColumns(), ...counts })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, id));
      return row ? withCounts(row) : null;
    },

    /** An endpoint's recent deliveries (newest first, at most `recent`) and its dead letters (newest first, at most `deadMax`): one call. */
    async endpointDeliveries(
      endpointId: number,
      recent: number,
      deadMax: number,
    ): Promise<{ recent: EndpointDelivery[]; dead: EndpointDelivery[] }> {
      const [latest, dead] = await db.batch([deliveriesOf(endpointId, null, recent), deliveriesOf(endpointId, "dead", deadMax)]);
      const flat = (rows: typeof latest) => rows.map((row) => ({ ...row.delivery, eventType: row.eventType }));
      return { recent: flat(latest), dead: flat(dead) };
    },

    /** Stores a new endpoint; the row. */
    async addEndpoint(endpoint: NewEndpoint, now: Date): Promise<WebhookEndpoint> {
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ ...endpoint, events: JSON.stringify(endpoint.events), createdAt: iso(now), updatedAt: iso(now) })
        .returning();
      if (!row) throw new Error("The new webhook endpoint was not stored.");
      return row;
    },

    /** Changes an endpoint; false when there is none with that id. */
    async changeEndpoint(id: number, change: EndpointChange, now: Date): Promise<boolean> {
      const { events, ...rest } = change;
      const rows = await db
        .update(webhookEndpoints)
        .set({ ...rest, ...(events ? { events: JSON.stringify(events) } : {}), updatedAt: iso(now) })
        .where(eq(webhookEndpoints.id, id))
        .returning({ id: webhookEndpoints.id });
      return rows.length > 0;
    },

    /** Deletes an endpoint and its deliveries (one batch); false when there is none with that id. */
    async removeEndpoint(id: number): Promise<boolean> {
      const [, removed] = await db.batch([
        db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)),
        db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id }),
      ]);
      return removed.length > 0;
    },

    /**
     * Makes an endpoint's dead deliveries due again (those named, or all): pending, no attempts,
     * due now, unclaimed. How many; ids that are not this endpoint's dead letters are left alone.
     */
    async retryEndpointDeadLetters(endpointId: number, ids: readonly number[] | "all", now: Date): Promise<number> {
      const dead = and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "dead"));
      const rows = await db
        .update(webhookDeliveries)
        .set({ status: "pending", attempts: 0, nextAt: iso(now), claim: null, lockedUntil: null })
        .where(ids === "all" ? dead : and(dead, inArray(webhookDeliveries.id, [...ids])))
        .returning({ id: webhookDeliveries.id });
      return rows.length;
    },
  };
}

function getColumns() {
  const { id, name, url, kind, events, secret, previousSecret, previousSecretUntil, enabled, disabledReason, disabledAt } =
    webhookEndpoints;
  const { failureRun, failingSince, pausedUntil, lastSuccessAt, createdAt, updatedAt } = webhookEndpoints;
  return {
    id,
    name,
    url,
    kind,
    events,
    secret,
    previousSecret,
    previousSecretUntil,
    enabled,
    disabledReason,
    disabledAt,
    failureRun,
    failingSince,
    pausedUntil,
    lastSuccessAt,
    createdAt,
    updatedAt,
  };
}
