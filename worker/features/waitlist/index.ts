/**
 * The waitlist, as the worker's entry points and the other features use it: its routes (POST
 * /api/waitlist, the /confirm page), the joiner mail's message (sent by the mail queue) and its budget's counter, a signed-in joiner's own actions
 * (join confirmed at once, where they stand, leave, resend), the console's line on visitor
 * e-mail, a parent's join on behalf of a child (issue 23), the mailbox key every feature keys a person's consent by, and a stored entry's attribution.
 */
export { waitlistRoutes } from "./routes";
export { confirmRoutes } from "./confirm-routes";
export { budgetDay, joinerMessage, runJoinerOutbox, visitorMailOf } from "./joiner-mail";
export { VISITOR_MAIL_KEY } from "./queries/budget";
export { joinConfirmed, joinOnBehalfOfChild } from "./confirmed-joins";
// The joins queue's consumer (worker/features/joins): a waiting join stored, and the e-mails it hands the mail queue.
export { mailJobsOfJoin } from "./join";
export { storeWaitingJoins } from "./waiting";
export { referralBoostOf } from "./boost";
export { journeyOf } from "./place";
export { leaveWaitlist, resendConfirmation } from "./leave-resend";
export { formerMailboxKey, mailboxKey, mailboxKeys } from "./keys";
export { attributionOf } from "./attribution";
export { type Defer, confirmCap } from "./writes";
export { isDisposableAddress } from "./disposable";
