/**
 * The mail queue (issue 24 §2; docs/api.md "How e-mail leaves"): the e-mails a join, a form or a
 * parent's request causes leave after the answer as jobs (jobs.ts) handed to the queue (handOver),
 * sent in batches by its consumer (consumeMailBatch: one database call to claim and read, one to
 * record), re-queued by the cron when due (requeueDue), and kept as dead letters for the console
 * when their batch could never be recorded (mailDeadLetters, retryMailDeadLetters).
 */
export { handOver } from "./hand-over";
export { consumeMailBatch, deliverMailJobs, isMailQueue, type MailBatchReport, MAIL_DEAD_LETTER_QUEUE, MAIL_QUEUE_NAME } from "./consumer";
export { requeueDue, type RequeueReport } from "./cron";
export { MAIL_ROW_KINDS, type MailDeadLetterView, mailDeadLetters, retryMailDeadLetters } from "./dead-letters";
export { mailQueueRoutes } from "./routes";
