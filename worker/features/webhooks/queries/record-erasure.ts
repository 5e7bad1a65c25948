import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * person.erased (issue 25 §2): the statements an erasure adds to its own batch, before the
 * person's rows go, for each address `people` selects (SQL: a select of one column, `email`; the
 * canonical addresses events carry), in this order:
 * 1. one person.erased event ({email, erased_at}) for each person some Standard endpoint was ever
 *    sent data of: a delivery naming them that was attempted (last_at set, whatever the answer:
 *    a 410 counts no attempt but the data went), delivered, or is being sent right now (claimed,
 *    lease not over). Slack endpoints never get personal data, so they never hear of an erasure;
 * 2. its deliveries, to exactly those endpoints (whatever events they chose, enabled or not), due
 *    no earlier than the end of the lease of a call to that endpoint still in the air, so the
 *    erasure arrives after the last copy;
 * 3. EVERY other pending delivery of the person cancelled, in-flight ones included, and their dead
 *    letters (a retry would send the redacted event): a run records a delivery's outcome only while
 *    it is pending (no retry with the data), and an in-flight one keeps its claim, so the run still
 *    records what the call told of its endpoint (a 429's pause, a 410's disabling);
 * 4. the person's name taken off those deliveries;
 * 5. every earlier event of the person redacted at once ('{}', person null). The person.erased
 *    event keeps {email, erased_at} until delivered (the delivery engine's cron redacts it).
 * Nothing is stored when no endpoint was ever sent the person's data: then nothing goes either.
 * An entry on behalf of a child was never sent (record.ts), so its erasure sends nothing.
 */
export function erasureEventStatements(db: Database, people: SQL, at: Date) {
  const when = iso(at);
  const d = webhookDeliveries;
  const inFlight = (r: SQL) => sql`(${r}.claim is not null and ${r}.locked_until > ${when})`;
  // Sent, or being sent, to a Standard endpoint: its receiver may hold the person's data.
  const reached = sql`(s.last_at is not null or s.status = 'delivered' or ${inFlight(sql.raw("s"))})`;
  const standard = sql`join ${webhookEndpoints} ep on ep.id = s.endpoint_id and ep.kind <> 'slack'`;
  const erasedEvents = sql`select x.id from ${webhookEvents} x where x.type = 'person.erased' and x.person in (${people})`;
  const endpointsReached = sql`select distinct s.person, s.endpoint_id from ${d} s ${standard}
    where s.person in (${people}) and ${reached}`;
  // The end of the lease of a call to the endpoint still in the air with the person's data, else now.
  const lastCopy = sql`coalesce((select max(f.locked_until) from ${d} f where f.person = ev.person and f.endpoint_id = t.endpoint_id
    and ${inFlight(sql.raw("f"))}), ${when})`;
  return [
    db
      .insert(webhookEvents)
      .select(
        sql`select null, 'person.erased:' || lower(hex(randomblob(12))), lower(hex(randomblob(12))), 'person.erased', p.email,
          json_object('email', p.email, 'erased_at', ${when}), ${when} from (${people}) p
          where exists (select 1 from ${d} s ${standard} where s.person = p.email and ${reached})`,
      )
      .onConflictDoNothing({ target: webhookEvents.key }),
    db
      .insert(d)
      .select(
        sql`select null, 'msg_' || ev.uid || '_' || t.endpoint_id, ev.id, t.endpoint_id, ev.person, 'pending', 0, ${lastCopy},
          null, null, null, null, null, null, null, ${when}
          from ${webhookEvents} ev join (${endpointsReached}) t on t.person = ev.person
          where ev.person in (${people}) and ev.type = 'person.erased' and ev.created_at = ${when}
          and not exists (select 1 from ${d} s where s.event_id = ev.id)`,
      )
      .onConflictDoNothing(),
    db
      .update(d)
      .set({ status: "cancelled" })
      .where(sql`${d.person} in (${people}) and ${d.status} in ('pending', 'dead') and ${d.eventId} not in (${erasedEvents})`),
    db.update(d).set({ person: null }).where(sql`${d.person} in (${people}) and ${d.eventId} not in (${erasedEvents})`),
    db
      .update(webhookEvents)
      .set({ payload: "{}", person: null })
      .where(sql`${webhookEvents.person} in (${people}) and ${webhookEvents.type} <> 'person.erased'`),
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
