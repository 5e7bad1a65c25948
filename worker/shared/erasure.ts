/**
 * What an erasure ("Delete everything" on My place, or the operator's on a request) keeps, and
 * why, in the words a student reads: the privacy policy (web/src/legal-content.ts) and the data
 * download (worker/features/me/account.ts) both say these, so they never disagree. The tables
 * behind each are in docs/operating.md "Erasing a person"; the statements in
 * worker/features/operator/queries/people.ts and erasure.ts.
 */
export const KEPT_AFTER_ERASURE = [
  "A record that the deletion happened: when, whether you or our team did it, how many records were deleted, and a " +
    "keyed hash of your email address (not the address), so that we can show the deletion was done and match a later " +
    "request about the same address to it.",
  "Counters that limit how many emails one inbox can get, kept by a keyed hash of the mailbox (not the address) until " +
    "their time window ends, at most a day later, so that deleting everything cannot be used to get around them.",
  "If a launch email was meant for you: one anonymous line in that campaign's delivery record (sent, skipped or " +
    "failed), without your address, your place in line or the time, so that the campaign's totals stay right.",
  "If you joined with a friend's link and confirmed: your friend keeps the places this earned them, and we keep a " +
    "one-way fingerprint of your inbox with your friend's referral code, when the referral counted and whether our team " +
    "cancelled it, so that joining again through the same link cannot count for your friend twice or undo our team's " +
    "decision. The fingerprint is not your address and cannot be turned back into it.",
  "Friends who joined with your link keep their own places in line; the link between them and you is removed.",
  "Emails already sent: the ones we sent you are in your inbox, and our team's notice of your signup or message stays " +
    "in the team's mailbox until the team deletes it.",
  "Backups of our database, which can restore it to any moment of the last 30 days: what you deleted is gone from " +
    "them once they are older than 30 days.",
] as const;
