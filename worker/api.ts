import { developmentOnly, jsonApp, jsonNoRoute } from "./platform/http/json-app";
import { adminRoutes } from "./features/operator/routes";
import { devMailboxRoutes } from "./features/dev-mailbox/routes";
import { formRoutes } from "./features/contact/routes";
import { healthRoutes } from "./features/health/routes";
import { meRoutes } from "./features/me/routes";
import { waitlistRoutes } from "./features/waitlist/routes";

/** The site's own JSON API under /api (worker/platform/http/json-app.ts: its errors, no caching). */
export const apiRoutes = jsonApp()
  .route("/health", healthRoutes)
  .route("/waitlist", waitlistRoutes)
  .route("/forms", formRoutes)
  .route("/admin", adminRoutes)
  .route("/me", meRoutes);
apiRoutes.all(
  "*",
  jsonNoRoute(() => apiRoutes),
);

/** /dev/*: only when ENVIRONMENT is exactly "development"; anywhere else nothing is here. */
export const devRoutes = jsonApp().use("*", developmentOnly).route("/mailbox", devMailboxRoutes);
devRoutes.all(
  "*",
  jsonNoRoute(() => devRoutes),
);
