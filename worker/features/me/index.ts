/**
 * The signed-in joiner's own API, /api/me (routes.ts): their place, the waitlist's buttons, their
 * consent to campaign e-mail, their data download and erasure. Nothing else uses it.
 */
export { meRoutes } from "./routes";
