import { sql } from "drizzle-orm";
import { index, integer, sqliteTableCreator, text } from "drizzle-orm/sqlite-core";

/** The project prefix of every table name. Change it here and regenerate the migrations. */
export const TABLE_PREFIX = "hwh";

const table = sqliteTableCreator((name) => `${TABLE_PREFIX}_${name}`);

/**
 * Columns every notified record carries. A sender "claims" a notification by writing a random
 * notify_claim and a notify_locked_until lease in one conditional update, so the inline delivery
 * and the cron retry never send the same e-mail at once, and only the current claim's holder can
 * record the outcome; notify_next_attempt_at holds the backoff after a failure.
 * Timestamps are ISO 8601 strings (UTC, millisecond precision), which sort as text.
 */
const deliveryColumns = () => ({
  emailSent: integer("email_sent", { mode: "boolean" }).notNull().default(false),
  emailSentAt: text("email_sent_at"),
  notifyAttempts: integer("notify_attempts").notNull().default(0),
  notifyLastError: text("notify_last_error"),
  notifyNextAttemptAt: text("notify_next_attempt_at"),
  notifyLockedUntil: text("notify_locked_until"),
  notifyClaim: text("notify_claim"),
});

export const waitlist = table(
  "waitlist",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Trimmed and lower-cased; the unique index makes concurrent joins produce one row. */
    email: text("email").notNull().unique(),
    /** Which placement of the form the visitor used (e.g. "hero", "cta"), if the page said. */
    source: text("source"),
    ...deliveryColumns(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index(`${TABLE_PREFIX}_waitlist_pending_idx`).on(t.emailSent, t.notifyNextAttemptAt)],
);

export const formSubmissions = table(
  "form_submissions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    formName: text("form_name").notNull(),
    /** The validated field values as a JSON object. */
    formData: text("form_data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    ...deliveryColumns(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index(`${TABLE_PREFIX}_form_submissions_pending_idx`).on(t.emailSent, t.notifyNextAttemptAt)],
);

/** E-mails kept instead of sent when no provider token is configured outside production. */
export const devMailbox = table("dev_mailbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  receivers: text("receivers", { mode: "json" }).$type<string[]>().notNull(),
  title: text("title").notNull(),
  bodyHtml: text("body_html").notNull(),
  createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
});

export type WaitlistEntry = typeof waitlist.$inferSelect;
export type FormSubmission = typeof formSubmissions.$inferSelect;
export type DevMail = typeof devMailbox.$inferSelect;
