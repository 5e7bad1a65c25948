import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { campaignRecipients, campaigns, formSubmissions, parentalRequests, referralCredits, waitlist } from "../../../platform/db/schema";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";
import type { WebhookEventType } from "../../../shared/webhooks";
import type { AgeBand } from "../../../shared/age";

/** The one band whose entries may leave the product. */
const ADULT_BAND: AgeBand = "18_plus";

/**
 * The statements that store a webhook event with the change that causes it (issue 25 §3), for the
 * writer's own batch, after its writes: one hwh_webhook_events row built in SQL from the rows as
 * the batch leaves them (so the payload is what was stored: worker/shared/webhooks.ts WebhookData),
 * and one pending delivery, due now, per endpoint whose `events` name the type (enabled or not: a
 * disabled endpoint's deliveries wait for it). An event is stored only when some endpoint wants
 * its type (no copy of a person's data is kept for nobody), once per key (a repeated change stores
 * nothing). Nothing about an entry made on behalf of a child is ever stored (issue 23): every
 * waitlist event's SELECT leaves such entries out. The writer kicks the webhooks queue after its
 * batch (hand-over.ts kickWebhooks). person.erased's statements are record-erasure.ts'.
 */

/** Where an event's rows come from: a key (unique per change), the person (canonical address, or null), the payload (JSON), and `from … where …` naming them. */
export type EventSource = { key: SQL; person: SQL; payload: SQL; from: SQL };

/** Whether the endpoint `ep` wants events of `type` (its JSON array names it; a malformed array names nothing). */
export const wants = (type: SQL | string) =>
  sql`exists (select 1 from json_each(case when json_valid(ep.events) then ep.events else '[]' end) t where t.value = ${type})`;

/** A pending delivery, due at `at`, of the event `ev` to the endpoint whose id is `endpoint` (every column in the table's order). */
export const deliveryRow = (endpoint: SQL, at: string) =>
  sql`select null, 'msg_' || ev.uid || '_' || ${endpoint}, ev.id, ${endpoint}, ev.person, 'pending', 0, ${at}, null, null, null, null, null, null, null, ${at}`;

/** The two statements storing events of `type` from `source` (any number of rows) and their deliveries. */
export function eventStatements(db: Database, type: WebhookEventType, source: EventSource, at: Date) {
  const when = iso(at);
  const rows = sql`select ${source.key} as event_key, ${source.person} as event_person, ${source.payload} as event_payload ${source.from}`;
  const keys = sql`select ${source.key} ${source.from}`;
  return [
    db
      .insert(webhookEvents)
      .select(
        sql`select null, s.event_key, lower(hex(randomblob(12))), ${type}, s.event_person, s.event_payload, ${when} from (${rows}) s
          where exists (select 1 from ${webhookEndpoints} ep where ${wants(type)})`,
      )
      .onConflictDoNothing({ target: webhookEvents.key }),
    // Only for an event this batch stored: one with no delivery yet (every stored event has one).
    db
      .insert(webhookDeliveries)
      .select(
        sql`${deliveryRow(sql`ep.id`, when)} from ${webhookEvents} ev join ${webhookEndpoints} ep on ${wants(sql`ev.type`)}
          where ev.key in (${keys}) and ev.created_at = ${when}
          and not exists (select 1 from ${webhookDeliveries} d where d.event_id = ev.id)`,
      )
      .onConflictDoNothing(),
  ] as const;
}

/** An entry's place as GET /api/me shows it (queries/journey.ts placeOf: two counts over the rank index), null while pending. */
const placeOf = (a: string) => {
  const row = sql.raw(a);
  return sql`(case when ${row}.rank_key is null then null else 1
    + (select count(*) from ${waitlist} x where x.rank_key < ${row}.rank_key)
    + (select count(*) from ${waitlist} x where x.rank_key = ${row}.rank_key and x.confirm_seq < ${row}.confirm_seq) end)`;
};

/** WebhookEntry of the entry `j`, as the batch left it. */
const entryPayload = sql`json_object('email', j.email, 'status', case when j.confirmed_at is null then 'pending' else 'confirmed' end,
  'place', ${placeOf("j")}, 'joined_at', j.created_at, 'confirmed_at', j.confirmed_at,
  'source', j.source, 'utm_source', j.utm_source, 'utm_medium', j.utm_medium, 'utm_campaign', j.utm_campaign, 'referrer_host', j.referrer_host)`;

/**
 * Which entries (`j`, rows of hwh_waitlist) an event is about: `which`, a condition on `j`, and
 * `join`, a clause joining what the condition needs (e.g. the waiting joins' json_each `w`).
 * Only an adult's own entry ever leaves (README "Never to a third party"): an entry on behalf of a
 * child, a child's or a teenager's (any band under 18), and one whose band is unknown (made before
 * the age question: it may be a child's) are always left out.
 */
export type Entries = { which: SQL; join?: SQL };

/** The entry `row` is an adult's own: not on behalf of a child, and its band is 18 or over (SQL). */
const adultOwn = (row: string) => sql`${sql.raw(row)}.on_behalf_of_child = 0 and ${sql.raw(row)}.age_band = ${ADULT_BAND}`;

const entriesFrom = ({ which, join }: Entries, more: SQL = sql``) =>
  sql`from ${waitlist} j ${join ?? sql``} ${more} where (${which}) and ${adultOwn("j")}`;

/** waitlist.joined of each new entry `entries` names (the caller names only entries its batch made: a re-join is none). */
export function joinedEventStatements(db: Database, entries: Entries, at: Date) {
  return eventStatements(
    db,
    "waitlist.joined",
    { key: sql`'waitlist.joined:' || j.id`, person: sql`j.email`, payload: entryPayload, from: entriesFrom(entries) },
    at,
  );
}

/**
 * waitlist.confirmed of each entry `entries` names that its batch confirmed (the caller names them
 * by the winning confirmation's claim), then referral.confirmed for each of them whose confirmation
 * credited a referrer in the same batch (the credit referralCreditStatement stored at the
 * confirmation's time): the referrer, its code, its new place and its confirmed referrals. Neither
 * side may be other than an adult's own entry.
 */
export function confirmedEventStatements(db: Database, entries: Entries, at: Date) {
  const credited = sql`exists (select 1 from ${referralCredits} c where c.referral_code = j.referred_by
    and c.mailbox_key = j.mailbox_key and c.created_at = j.confirmed_at)`;
  return [
    ...eventStatements(
      db,
      "waitlist.confirmed",
      { key: sql`'waitlist.confirmed:' || j.id`, person: sql`j.email`, payload: entryPayload, from: entriesFrom(entries) },
      at,
    ),
    ...eventStatements(
      db,
      "referral.confirmed",
      {
        key: sql`'referral.confirmed:' || j.id`,
        person: sql`r.email`,
        payload: sql`json_object('referrer', json_object('email', r.email, 'referral_code', r.referral_code,
          'place', ${placeOf("r")}, 'referrals_confirmed', r.referrals_confirmed))`,
        from: sql`${entriesFrom(entries, sql`join ${waitlist} r on r.referral_code = j.referred_by`)}
          and ${adultOwn("r")} and ${credited}`,
      },
      at,
    ),
  ] as const;
}

/** Who wrote a contact message, as the contact path computes it before its batch: the canonical address and its mailbox key. */
export type ContactSender = { email: string; mailbox: string };

/**
 * No entry of the address `email`, of its canonical form or of its mailbox (case, Gmail dots,
 * +tags folded) but an adult's own, nor a parent a child's request is waiting for under any of
 * them (SQL; the parental requests' rules: worker/features/parents/ask.ts).
 */
const noChildBehind = (email: SQL, sender: ContactSender) => {
  const same = (address: string, mailbox: string) =>
    sql`(${sql.raw(address)} in (${email}, ${sender.email}) or (${sender.mailbox} <> '' and ${sql.raw(mailbox)} = ${sender.mailbox}))`;
  return sql`not exists (select 1 from ${waitlist} k where ${same("k.email", "k.mailbox_key")} and not (${adultOwn("k")}))
  and not exists (select 1 from ${parentalRequests} p where ${same("p.parent_email", "p.mailbox_key")})`;
};

/**
 * contact.received of the submission of form `form` (its slug; stored as `formName`) stored at
 * `at` with the notification claim `claim`: its address, name, message and time. None when the
 * address, or a variant of it (`form.sender`: its canonical form and mailbox key), is that of an
 * entry other than an adult's own, or of a parent a child's request waits for (what they write
 * may be about the child).
 */
export function contactEventStatements(db: Database, form: { slug: string; name: string; sender: ContactSender }, claim: string, at: Date) {
  const field = (name: string) => sql`json_extract(f.form_data, ${`$.${name}`})`;
  return eventStatements(
    db,
    "contact.received",
    {
      key: sql`'contact.received:' || f.id`,
      person: field("email"),
      payload: sql`json_object('form', ${form.slug}, 'email', ${field("email")}, 'name', nullif(${field("name")}, ''),
        'message', coalesce(${field("message")}, ''), 'received_at', f.created_at)`,
      from: sql`from ${formSubmissions} f where f.form_name = ${form.name} and f.created_at = ${iso(at)} and f.notify_claim = ${claim}
        and coalesce(${field("email")}, '') <> '' and ${noChildBehind(field("email"), form.sender)}`,
    },
    at,
  );
}

/** campaign.finished of the campaign the batch ended ("sent" at `at`): its counts of sent, skipped and failed rows. Once per campaign. */
export function campaignFinishedEventStatements(db: Database, campaignId: number, at: Date) {
  const counted = (status: string) =>
    sql`(select count(*) from ${campaignRecipients} cr where cr.campaign_id = c.id and cr.status = ${status})`;
  return eventStatements(
    db,
    "campaign.finished",
    {
      key: sql`'campaign.finished:' || c.id`,
      person: sql`null`,
      payload: sql`json_object('campaign_id', c.id, 'name', c.subject, 'sent', ${counted("sent")}, 'skipped', ${counted("skipped")},
        'failed', ${counted("failed")}, 'finished_at', c.finished_at)`,
      from: sql`from ${campaigns} c where c.id = ${campaignId} and c.status = 'sent' and c.finished_at = ${iso(at)}`,
    },
    at,
  );
}
