import * as v from "valibot";
import { strictFields } from "./text";

/**
 * The operator API's mail dead letters (worker/features/mail-queue/routes.ts; the console's
 * MailDeadLetters): e-mails whose queue batch could not be recorded through every retry, one per
 * outbox row, and the retry that puts them back on the mail queue (all, or the rows named).
 */

/** Which outbox a dead letter's row is in: the joiner's e-mail, the team's notification of a join or of a form, a parent's request. */
export const MAIL_KINDS = ["joiner", "waitlist", "form", "parent"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export type MailDeadLetterJson = { kind: MailKind; row_id: number; error: string; dead_lettered_at: string };

/** GET /api/admin/mail/dead-letters: the newest first (at most MAIL_DEAD_LETTERS_MAX), and how many there are. */
export type MailDeadLetterList = { total: number; dead_letters: MailDeadLetterJson[] };

/** POST /api/admin/mail/dead-letters/retry's answer: how many rows went back on the queue (sent or erased ones are only taken off the list). */
export type MailDeadLetterRetried = { requeued: number };

export const MAIL_DEAD_LETTERS_PATH = "/mail/dead-letters";
export const MAIL_DEAD_LETTERS_MAX = 200;
const ROWS_MAX = 100;

const ROWS_MESSAGE = `rows must be a list of at most ${ROWS_MAX} { kind, row_id } pairs.`;

/** The retry's body: `rows` to retry those, nothing (or no body) for all. */
export const mailDeadLetterRetrySchema = strictFields({
  rows: v.optional(
    v.pipe(
      v.array(
        v.strictObject(
          {
            kind: v.picklist(MAIL_KINDS, ROWS_MESSAGE),
            row_id: v.pipe(v.number(ROWS_MESSAGE), v.integer(ROWS_MESSAGE), v.minValue(1, ROWS_MESSAGE)),
          },
          ROWS_MESSAGE,
        ),
        ROWS_MESSAGE,
      ),
      v.maxLength(ROWS_MAX, ROWS_MESSAGE),
    ),
  ),
});
export type MailDeadLetterRetry = v.InferOutput<typeof mailDeadLetterRetrySchema>;
