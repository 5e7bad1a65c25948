import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";
import { deliveryRow } from "./record";

/**
 * person.erased (issue 25 §2): the statements an erasure adds to its own batch, before the
 * person's rows go, for each address `people` selects (SQL: a select of one column, `email`; the
 * canonical addresses events carry), in this order:
 * 1. one person.erased event ({email, erased_at}) for each person some endpoint was ever sent data
 *    of: a delivery naming them that was attempted, delivered, or is being sent right now;
 * 2. its deliveries, to exactly those endpoints (whatever events they chose, enabled or not);
 * 3. the person's other pending deliveries, not being sent right now, cancelled (attempted or not:
 *    the person.erased that follows them tells the receiver to forget the person anyway);
 * 4. the person's name taken off their settled deliveries (delivered, dead, cancelled);
 * 5. the payload and person of each of their events nothing waits to send any more redacted ('{}',
 *    null). The person.erased event keeps {email, erased_at} until delivered (the delivery
 *    engine's cron redacts it), as does an event a sender holds right now.
 * Nothing is stored when no endpoint was ever sent the person's data: then nothing goes either.
 * An entry on behalf of a child was never sent (record.ts), so its erasure sends nothing.
 */
export function erasureEventStatements(db: Database, people: SQL, at: Date) {
  const when = iso(at);
  const d = webhookDeliveries;
  // Sent, or being sent: a receiver may hold the person's data.
  const reached = (row: string) => {
    const r = sql.raw(row);
    return sql`(${r}.attempts > 0 or ${r}.status = 'delivered' or (${r}.claim is not null and ${r}.locked_until > ${when}))`;
  };
  const erasedEvents = sql`select x.id from ${webhookEvents} x where x.type = 'person.erased' and x.person in (${people})`;
  const endpointsReached = sql`select distinct s.person, s.endpoint_id from ${d} s join ${webhookEndpoints} ep on ep.id = s.endpoint_id
    where s.person in (${people}) and ${reached("s")}`;
  return [
    db
      .insert(webhookEvents)
      .select(
        sql`select null, 'person.erased:' || lower(hex(randomblob(12))), lower(hex(randomblob(12))), 'person.erased', p.email,
          json_object('email', p.email, 'erased_at', ${when}), ${when} from (${people}) p
          where exists (select 1 from ${d} s where s.person = p.email and ${reached("s")})`,
      )
      .onConflictDoNothing({ target: webhookEvents.key }),
    db
      .insert(d)
      .select(
        sql`${deliveryRow(sql`t.endpoint_id`, when)} from ${webhookEvents} ev join (${endpointsReached}) t on t.person = ev.person
          where ev.person in (${people}) and ev.type = 'person.erased' and ev.created_at = ${when}
          and not exists (select 1 from ${d} s where s.event_id = ev.id)`,
      )
      .onConflictDoNothing(),
    db
      .update(d)
      .set({ status: "cancelled", claim: null, lockedUntil: null })
      .where(
        sql`${d.person} in (${people}) and ${d.status} = 'pending' and ${d.eventId} not in (${erasedEvents})
          and not (${d.claim} is not null and ${d.lockedUntil} > ${when})`,
      ),
    db.update(d).set({ person: null }).where(sql`${d.person} in (${people}) and ${d.status} <> 'pending'`),
    db
      .update(webhookEvents)
      .set({ payload: "{}", person: null })
      .where(
        sql`${webhookEvents.person} in (${people}) and ${webhookEvents.type} <> 'person.erased'
          and not exists (select 1 from ${d} s where s.event_id = ${webhookEvents.id} and s.status = 'pending')`,
      ),
  ] as const;
}

/** The people of one erasure: its (canonical) address. */
export const erasedAddress = (email: string) => sql`select ${email} as email`;

/**
 * The contact.received events of the submissions `ids` selects (SQL: a select of one column, `id`; the retention sweep's contact
 * messages, deleted in the same batch) redacted once nothing waits to send them.
 */
export function redactContactEventsStatement(db: Database, ids: SQL) {
  return db
    .update(webhookEvents)
    .set({ payload: "{}", person: null })
    .where(
      sql`${webhookEvents.key} in (select 'contact.received:' || c.id from (${ids}) c)
        and not exists (select 1 from ${webhookDeliveries} s where s.event_id = ${webhookEvents.id} and s.status = 'pending')`,
    );
}
