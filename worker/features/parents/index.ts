/**
 * A parent's or guardian's consent for a child below the consent age (issue 23 §2; docs/api.md
 * "Parents"): the request the join routes store instead of the child's address (askParent), its
 * e-mail's outbox run by the cron (runParentOutbox), and the parent's page, /parent (parentRoutes).
 */
export { askParent, type ParentAsk } from "./ask";
export { runParentOutbox } from "./mail";
export { parentRoutes } from "./routes";
