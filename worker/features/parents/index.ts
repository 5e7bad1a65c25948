/**
 * A parent's or guardian's consent for a child below the consent age (issue 23 §2; docs/api.md
 * "Parents"): the request the join routes store instead of the child's address (askParent), its
 * e-mail's message (parentMessage, sent by the mail queue), the parent's page, /parent (parentRoutes), and
 * the console's figures of the answers (parentalStats).
 */
export { askParent, type ParentAsk, parentAddress } from "./ask";
export { parentMessage, runParentOutbox } from "./mail";
export { parentRoutes } from "./routes";
export { type ParentalStats, parentalStats } from "./stats";
