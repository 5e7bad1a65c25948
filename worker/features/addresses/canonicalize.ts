import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import { canonicalEmail } from "../../shared/text";
import { subjectHash } from "../operator";
import { formerMailboxKey, mailboxKey } from "../waitlist";
import type { AddressMove, HolderOf, StoredAddress } from "./queries";

/**
 * The cron's backfill of addresses stored before they were canonical (issue 22): waitlist
 * entries, sign-in users and their codes, and the forms' submissions, stored with a spelling
 * that is not the address's canonical form (worker/shared/text.ts) are moved to it, with everything keyed by the old
 * spelling's mailbox key (suppressions, the consent trail, referral credits) moved to the new key.
 * SQL cannot do IDNA, so it runs here, in bounded steps: at most STEP rows of each table per
 * run, in rowid order from where the last run stopped. Only rows with a character outside ASCII
 * are read (ASCII lower case, which is how every address was stored, is already canonical, or
 * cannot be made canonical at all); once a table's end is reached its backfill is finished and
 * costs one read per run. A row already canonical (a Unicode local part) is left as it is; one
 * that cannot be made canonical is left as it is and counted.
 *
 * Two stored spellings of one address (the canonical one already taken): the confirmed row stays
 * (a confirmed waitlist entry, a verified user), else the earlier one (the lower id; users: the
 * earlier created); the other is deleted with what only it owns (an entry's joiner mails; a
 * user's sessions and refresh tokens), and recorded in the audit trail (`address.merged`, by the
 * address's subjectHash, with what the dropped row carried). So a person never loses a confirmed
 * entry: when both are confirmed, the earlier stays. A move is one batch that holds only while both rows are as they
 * were read; when it does not hold, the run stops there and the next run tries again. The log
 * line holds counts, never an address.
 */

/** Rows of each table looked at per run. */
export const STEP = 200;

type Job = "entries" | "users" | "codes" | "submissions";
const BACKFILL = (job: Job) => `canonical-addresses:${job}`;

export type CanonicalizeReport = Record<Job, { moved: number; merged: number; unfixable: number; finished: boolean }>;

const empty = () => ({ moved: 0, merged: 0, unfixable: 0, finished: false });

/** Which of two stored rows of one address stays: the confirmed one, else the earlier. */
function keeps(row: HolderOf, other: HolderOf): AddressMove["keep"] {
  if (row.confirmed !== other.confirmed) return row.confirmed ? "row" : "other";
  return row.order < other.order ? "row" : "other";
}

/**
 * Looks at the next STEP rows of one table and moves each that needs it, stopping at the first
 * move that did not hold. Saves how far it got, and that it finished when it read fewer than a
 * full step and moved them all.
 */
async function runJob<Row extends Pick<StoredAddress, "position" | "email">>(
  deps: Deps,
  job: Job,
  rows: (after: number) => Promise<Row[]>,
  move: (row: Row, to: string) => Promise<"moved" | "merged" | "retry">,
): Promise<CanonicalizeReport[Job]> {
  const report = empty();
  const { cursor, finished } = await deps.repo.addresses.progress(BACKFILL(job));
  if (finished) return { ...report, finished };
  const batch = await rows(cursor);
  let reached = cursor;
  let stopped = false;
  for (const row of batch) {
    const to = canonicalEmail(row.email);
    if (to === null) report.unfixable += 1;
    else if (to !== row.email) {
      const outcome = await move(row, to).catch((error: unknown) => {
        log("warn", "addresses.move_failed", { job, error: describeError(error) });
        return "retry" as const;
      });
      if (outcome === "retry") {
        stopped = true;
        break;
      }
      report[outcome] += 1;
    }
    reached = row.position;
  }
  report.finished = !stopped && batch.length < STEP;
  await deps.repo.addresses.saveProgress(BACKFILL(job), reached, report.finished, deps.now());
  return report;
}

/** One run of the backfill: the waitlist's entries, then sign-in's users, then its codes, then the forms' submissions. */
export async function canonicalizeAddresses(deps: Deps): Promise<CanonicalizeReport> {
  const { repo } = deps;
  const secret = deps.config.auth.jwtSecret;
  const keysOf = async (row: StoredAddress, to: string) => ({
    key: await mailboxKey(secret, to),
    formerKeys: [...new Set([row.key, await formerMailboxKey(secret, row.email)])],
    subject: await subjectHash(secret, to),
    at: deps.now().toISOString(),
  });
  const outcome = (done: boolean, merged: boolean) => (done ? (merged ? "merged" : "moved") : "retry");

  const entries = await runJob(
    deps,
    "entries",
    (after) => repo.addresses.entriesToCheck(after, STEP),
    async (row, to) => {
      const other = await repo.addresses.entryAt(to);
      const keep = other ? keeps(row, other) : "row";
      const move: AddressMove = { row, to, other, keep, ...(await keysOf(row, to)) };
      return outcome(await repo.addresses.moveEntry(move), other !== null);
    },
  );
  const users = await runJob(
    deps,
    "users",
    (after) => repo.addresses.usersToCheck(after, STEP),
    async (row, to) => {
      const other = await repo.addresses.userAt(to);
      const keep = other ? keeps(row, other) : "row";
      const move: AddressMove = { row, to, other, keep, ...(await keysOf(row, to)) };
      return outcome(await repo.addresses.moveUser(move), other !== null);
    },
  );
  const codes = await runJob(
    deps,
    "codes",
    async (after) => repo.addresses.codesToCheck(after, STEP),
    async (row) => {
      await repo.addresses.deleteCodes([row.email]);
      return "moved";
    },
  );

  // A submission's e-mail fields, each to its canonical form (what cannot be made one stays). The row is read as the first
  // field that can be moved (else its first: counted as unfixable, or left when already canonical).
  const movable = (email: string) => ![null, email].includes(canonicalEmail(email));
  const submissions = await runJob(
    deps,
    "submissions",
    async (after) =>
      (await repo.addresses.submissionsToCheck(after, STEP)).map((row) => {
        const fields = Object.values(row.addresses);
        return { ...row, email: fields.find(movable) ?? fields[0] ?? "" };
      }),
    async ({ position, addresses }) => {
      const to = Object.fromEntries(
        Object.entries(addresses).flatMap(([name, email]) => (movable(email) ? [[name, canonicalEmail(email)!]] : [])),
      );
      return (await repo.addresses.moveSubmission(position, addresses, to)) ? "moved" : "retry";
    },
  );

  const report = { entries, users, codes, submissions };
  if (Object.values(report).some((counts) => counts.moved + counts.merged + counts.unfixable > 0)) {
    log("info", "addresses.canonicalized", report);
  }
  return report;
}
