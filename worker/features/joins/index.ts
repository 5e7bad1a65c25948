/**
 * The joins queue (issue 24 §3; README "When the database cannot take a join"): joins the
 * database could not take wait on it, its consumer stores them in batches, the backlog (a Durable
 * Object) counts them and keeps the dead ones, the console lists those with "retry".
 */
export { consumeDeadJoins, consumeJoinBatch } from "./consumer";
export { JoinBacklog, type BacklogStats } from "./backlog";
export { joinsAdminRoutes, waitingJoinsOf } from "./routes";
export const JOINS_QUEUE = "homework-helper-joins";
export const JOINS_DLQ = "homework-helper-joins-dlq";
