import { desc, eq, getTableColumns, inArray, or, sql, type SQL } from "drizzle-orm";
import type { BatchResponse } from "drizzle-orm/batch";
import { FORMS } from "../../../shared/forms";
import type { AgeBandStored } from "../../../shared/age";
import { placeColumn, type PlacedEntry } from "./journey";
import { eraseConsent } from "../../campaigns/queries/consent";
import { eraseLinks } from "./erasure";
import { erasedAddress, erasureEventStatements } from "../../webhooks/queries/record-erasure";
import type { Database } from "../../../platform/db/database";
import {
  auditLog,
  authCodes,
  authRefreshTokens,
  authSessions,
  authUsers,
  campaignRecipients,
  campaigns,
  formSubmissions,
  joinerMail,
  parentalRequests,
  waitlist,
} from "../../../platform/db/schema";
import type { AuthSession, AuthUser, FormSubmission } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * What names a person (part of the operator's repository, index.ts): everything stored about one
 * address, and its erasure in one batch, each together with its audit record.
 */

/** The names of the e-mail fields of every form: where a submission names its sender. */
const EMAIL_FIELDS = [
  ...new Set(FORMS.flatMap((form) => form.fields.filter((field) => field.type === "email").map((field) => field.name))),
];

/** Submissions whose e-mail field (of any form) is `email` (stored addresses compared lower-cased). */
function submittedBy(email: string): SQL {
  const matches = EMAIL_FIELDS.map((name) => sql`lower(json_extract(${formSubmissions.formData}, ${`$.${name}`})) = ${email}`);
  return matches.length === 0 ? sql`0` : or(...matches)!;
}

export type PersonData = {
  waitlist: PlacedEntry | null;
  submissions: FormSubmission[];
  user: (AuthUser & { sessions: AuthSession[] }) | null;
  /** The address's sign-in code record; `live` while its code has not been used or worn out. */
  signInCode: { sentAt: string; expiresAt: string; live: boolean } | null;
  /** The entry's confirmation or welcome e-mails (hwh_joiner_mail), oldest first: the person's download names them. */
  joinerMails: { kind: "confirm" | "welcome"; createdAt: string; sentAt: string | null; attempts: number }[];
  /** The campaigns that drew the entry, with what became of their e-mail to it (hwh_campaign_recipients), oldest first. */
  campaignMails: { campaignId: number; subject: string; status: string; skipReason: string | null; sentAt: string | null }[];
  /**
   * Children's requests waiting for this address's answer as their parent (issue 23), oldest
   * first: what they keep (never the child's address) and whether the e-mail went.
   */
  parentalRequests: { createdAt: string; ageBand: AgeBandStored; country: string | null; sentAt: string | null }[];
};

/** Who did an audited action to whom (a keyed hash of the address, never the address), and when. */
export type AuditOf = { operator: string; subjectHash: string; now: Date };

/** The counts of what is stored about one address, as one SQL json_object (for an audit record). */
function storedCounts(email: string): SQL {
  const counted = (statement: SQL) => sql`(${statement})`;
  return sql`json_object(
    'waitlist', ${counted(sql`select count(*) from ${waitlist} where ${waitlist.email} = ${email}`)},
    'submissions', ${counted(sql`select count(*) from ${formSubmissions} where ${submittedBy(email)}`)},
    'users', ${counted(sql`select count(*) from ${authUsers} where ${authUsers.email} = ${email}`)})`;
}

export function createPeopleQueries(db: Database) {
  /** An audit record about one address, its details the counts of what is stored about it (read as the batch runs). */
  const auditPerson = (action: string, email: string, audit: AuditOf) =>
    db.insert(auditLog).values({
      action,
      operator: audit.operator,
      subjectHash: audit.subjectHash,
      details: storedCounts(email),
      createdAt: iso(audit.now),
    });

  return {
    /**
     * Everything stored about one (normalised) address. With `audit` (the operator API always
     * gives it), the batch's first statement records the look-up in the audit trail
     * (`person.looked_up`, with the counts it found), so no look-up goes unrecorded.
     */
    async person(email: string, audit?: AuditOf): Promise<PersonData> {
      const entryId = db.select({ id: waitlist.id }).from(waitlist).where(eq(waitlist.email, email));
      const reads = [
        db
          .select({ ...getTableColumns(waitlist), place: placeColumn })
          .from(waitlist)
          .where(eq(waitlist.email, email))
          .limit(1),
        db.select().from(formSubmissions).where(submittedBy(email)).orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id)),
        db.select().from(authUsers).where(eq(authUsers.email, email)).limit(1),
        db
          .select({ session: authSessions })
          .from(authSessions)
          .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
          .where(eq(authUsers.email, email))
          .orderBy(desc(authSessions.createdAt)),
        db
          .select({ sentAt: authCodes.sentAt, expiresAt: authCodes.expiresAt, live: sql<number>`${authCodes.codeHash} is not null` })
          .from(authCodes)
          .where(eq(authCodes.email, email))
          .limit(1),
        db
          .select({ kind: joinerMail.kind, createdAt: joinerMail.createdAt, sentAt: joinerMail.sentAt, attempts: joinerMail.attempts })
          .from(joinerMail)
          .where(inArray(joinerMail.entryId, entryId))
          .orderBy(joinerMail.id),
        db
          .select({
            campaignId: campaignRecipients.campaignId,
            subject: campaigns.subject,
            status: campaignRecipients.status,
            skipReason: campaignRecipients.skipReason,
            sentAt: campaignRecipients.sentAt,
          })
          .from(campaignRecipients)
          .innerJoin(campaigns, eq(campaigns.id, campaignRecipients.campaignId))
          .where(inArray(campaignRecipients.entryId, entryId))
          .orderBy(campaignRecipients.id),
        db
          .select({
            createdAt: parentalRequests.createdAt,
            ageBand: parentalRequests.ageBand,
            country: parentalRequests.country,
            sentAt: parentalRequests.sentAt,
          })
          .from(parentalRequests)
          .where(eq(parentalRequests.parentEmail, email))
          .orderBy(parentalRequests.id),
      ] as const;
      type Read = BatchResponse<typeof reads>;
      const [entries, submissions, users, sessions, codes, joinerMails, campaignMails, requests] = audit
        ? ((await db.batch([auditPerson("person.looked_up", email, audit), ...reads])).slice(1) as unknown as Read)
        : await db.batch(reads);
      const user = users[0];
      return {
        waitlist: entries[0] ?? null,
        submissions,
        user: user ? { ...user, sessions: sessions.map((row) => row.session) } : null,
        signInCode: codes[0] ? { sentAt: codes[0].sentAt, expiresAt: codes[0].expiresAt, live: Boolean(codes[0].live) } : null,
        joinerMails,
        campaignMails,
        parentalRequests: requests,
      };
    },

    /**
     * Erases everything stored about one (normalised) address in one batch: its waitlist entry
     * with its joiner e-mails (queued or sent), the submissions it sent, its sign-in user with the sessions and refresh tokens, its code,
     * its mailbox's suppression and consent trail (`mailboxKey`: the address's, which finds them after the entry left),
     * children's requests waiting for it as their parent (by the address or its mailbox key, issue 23),
     * and what links other rows to it: referral credits (kept as tombstones under `pairKey`), friends' referred_by,
     * campaign recipients (erasure.ts).
     * The batch's first statement writes the audit record, with the counts of what the rest
     * deletes, so an erasure is never done without its record nor recorded without being done.
     */
    async erasePerson(email: string, audit: AuditOf, mailboxKey?: string, pairKey?: string) {
      const userIds = db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.email, email));
      const sessionIds = db.select({ id: authSessions.id }).from(authSessions).where(inArray(authSessions.userId, userIds));
      const before = [
        auditPerson("person.erased", email, audit),
        // person.erased to the webhook endpoints ever sent this person's data, the rest of theirs cancelled and redacted (issue 25).
        ...erasureEventStatements(db, erasedAddress(email), audit.now),
        ...eraseConsent(db, email, mailboxKey),
        ...eraseLinks(db, email, audit.now, mailboxKey, pairKey),
        db
          .delete(joinerMail)
          .where(inArray(joinerMail.entryId, db.select({ id: waitlist.id }).from(waitlist).where(eq(waitlist.email, email)))),
      ];
      const results = (await db.batch([
        ...before,
        db.delete(waitlist).where(eq(waitlist.email, email)).returning({ id: waitlist.id }),
        db.delete(formSubmissions).where(submittedBy(email)).returning({ id: formSubmissions.id }),
        db.delete(authRefreshTokens).where(inArray(authRefreshTokens.sessionId, sessionIds)),
        db.delete(authSessions).where(inArray(authSessions.userId, userIds)),
        db.delete(authUsers).where(eq(authUsers.email, email)).returning({ id: authUsers.id }),
        db.delete(authCodes).where(eq(authCodes.email, email)),
        // Children's requests waiting for this address as their parent (issue 23): the address, or its mailbox's.
        db
          .delete(parentalRequests)
          .where(
            mailboxKey
              ? or(eq(parentalRequests.parentEmail, email), eq(parentalRequests.mailboxKey, mailboxKey))
              : eq(parentalRequests.parentEmail, email),
          ),
      ] as unknown as [ReturnType<typeof auditPerson>])) as unknown[];
      const [entries, submissions, , , users] = results.slice(before.length) as { id: number }[][];
      return { waitlist: entries!.length, submissions: submissions!.length, users: users!.length };
    },
  };
}
