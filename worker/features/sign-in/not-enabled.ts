import type { Hono } from "hono";
import { AuthError } from "./errors";

/**
 * Everything else GoTrue offers (and auth-js can call) is not enabled here: a clear answer in
 * GoTrue's shape (422, with the code GoTrue gives a disabled feature) rather than a 404 page or
 * a 500, pointing to the one way in.
 */

const SIGN_IN_HINT = "Sign in with an e-mail code instead (POST /auth/v1/otp).";

export function notEnabled(feature: string, code = "feature_not_enabled"): AuthError {
  return new AuthError(422, code, `${feature} is not enabled on this service. ${SIGN_IN_HINT}`);
}

export function phoneNotEnabled(): AuthError {
  return new AuthError(422, "phone_provider_disabled", `Phone sign-in is not enabled on this service. ${SIGN_IN_HINT}`);
}

const NOT_ENABLED: { methods: ("GET" | "POST" | "PUT" | "DELETE")[]; path: string; feature: string; code?: string }[] = [
  { methods: ["POST"], path: "/signup", feature: "Sign-up with a password", code: "signup_disabled" },
  { methods: ["POST"], path: "/recover", feature: "Password recovery" },
  { methods: ["POST"], path: "/resend", feature: "Resending confirmation e-mails" },
  { methods: ["POST"], path: "/magiclink", feature: "Magic links" },
  { methods: ["POST"], path: "/invite", feature: "Invitations" },
  { methods: ["GET"], path: "/reauthenticate", feature: "Reauthentication" },
  { methods: ["PUT"], path: "/user", feature: "Updating the user" },
  { methods: ["GET", "POST"], path: "/authorize", feature: "OAuth sign-in", code: "provider_disabled" },
  { methods: ["GET", "POST"], path: "/callback", feature: "OAuth sign-in", code: "provider_disabled" },
  { methods: ["POST"], path: "/sso", feature: "Single sign-on (SSO)", code: "saml_provider_disabled" },
  { methods: ["GET", "POST", "PUT", "DELETE"], path: "/factors", feature: "Multi-factor authentication" },
  { methods: ["GET", "POST", "PUT", "DELETE"], path: "/factors/*", feature: "Multi-factor authentication" },
  { methods: ["GET", "POST", "PUT", "DELETE"], path: "/user/identities/*", feature: "Linking identities", code: "manual_linking_disabled" },
  { methods: ["GET", "POST", "PUT", "DELETE"], path: "/oauth/*", feature: "OAuth server" },
  { methods: ["POST"], path: "/admin/users", feature: "Creating users through the admin API" },
  { methods: ["PUT"], path: "/admin/users/:id", feature: "Updating users through the admin API" },
  { methods: ["GET", "POST", "PUT", "DELETE"], path: "/admin/users/:id/factors/*", feature: "Multi-factor authentication" },
  { methods: ["GET", "POST", "PUT", "DELETE"], path: "/admin/users/:id/factors", feature: "Multi-factor authentication" },
  { methods: ["POST"], path: "/admin/generate_link", feature: "Generating links" },
  { methods: ["GET", "POST", "PUT", "DELETE"], path: "/admin/sso/*", feature: "Single sign-on (SSO)", code: "saml_provider_disabled" },
  { methods: ["GET", "POST", "PUT", "DELETE"], path: "/admin/oauth/*", feature: "OAuth server" },
];

/**
 * Adds the not-enabled routes to `app` (after its own routes and middleware, so the admin
 * routes' key check still comes first; before its catch-all, whose 405s then name these methods too).
 */
// biome-ignore lint/suspicious/noExplicitAny: any app's env: these routes read nothing of it.
export function refuseNotEnabled(app: Hono<any>): void {
  for (const route of NOT_ENABLED) {
    app.on(route.methods, route.path, () => {
      throw notEnabled(route.feature, route.code);
    });
  }
}
