/**
 * The waitlist, as the other features use it: the mailbox key every feature keys a person's
 * consent by, and an entry's attribution as the operator API shows it.
 */
export { mailboxKey } from "./keys";
export { attributionOf } from "./queries/join";
