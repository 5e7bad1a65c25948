import { Hono, type Context, type MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import {
  API_VERSION,
  API_VERSION_HEADER,
  AUTH_BODY_ERRORS,
  AuthError,
  authErrorResponse,
  parentNeededToSignIn,
  unexpectedFailure,
  validationFailed,
} from "./errors";
import { otpSchema, refreshSchema, verifySchema } from "./schemas";
import { adminDeleteUser, adminGetUser, adminListUsers, readPagination, requireAdmin } from "./admin";
import { requestCode } from "./codes";
import { DEVICE_COOKIE, deviceCookieOptions, deviceToken } from "./device";
import { jwtSecret, requestOrigin, type RequestOrigin } from "./request";
import { authenticate, readLogoutScope, refreshSession, signOut, verifyCode } from "./sessions";
import { notEnabled, phoneNotEnabled, refuseNotEnabled } from "./not-enabled";
import { userJson } from "./user";
import type { AppConfig } from "../../platform/config/config";
import type { AppEnv } from "../../deps";
import { jsonBody, validJson } from "../../platform/http/body";
import { pathInApp } from "../../platform/http/methods";
import { answerErrors, noRoute } from "../../platform/http/sub-app";
import { limitPerClient } from "../../platform/limits";
import { BRAND_NAME } from "../../shared/brand";
import { parentMustDecide } from "../age";
import { requestRateMessage } from "../../shared/sign-in";

/**
 * The GoTrue-compatible subset under /auth/v1 that @supabase/auth-js needs for e-mail code
 * sign-in. Routes parse and answer; the rules live in codes.ts, sessions.ts and admin.ts (index.ts
 * maps the folder). This sub-app
 * owns its error format (GoTrue's), through its own error handler.
 */
export const authRoutes = new Hono<AppEnv>();

/** Every answer: the API version auth-js reads error codes by, exposed to scripts; never cached. */
authRoutes.use("*", async (c, next) => {
  await next();
  c.header(API_VERSION_HEADER, API_VERSION);
  // The admin list exposes its pagination headers as well; keep what a route set.
  if (!c.res.headers.has("Access-Control-Expose-Headers")) c.header("Access-Control-Expose-Headers", API_VERSION_HEADER);
  c.header("Cache-Control", "no-store");
});

authRoutes.onError(
  answerErrors({
    kind: AuthError,
    respond: authErrorResponse,
    internal: () => unexpectedFailure(),
    events: { failed: "auth.request_failed", unhandled: "auth.request_unhandled" },
  }),
);

const origin = (c: Context<AppEnv>): RequestOrigin => requestOrigin(c.req.raw);

/**
 * The per-client limit of a sign-in route (AUTH_RATE_LIMIT_*), in GoTrue's 429; when the counter
 * cannot be written, a 500 in GoTrue's shape (the limit fails closed).
 */
function rateLimited(route: keyof AppConfig["auth"]["rateLimit"]): MiddlewareHandler<AppEnv> {
  return limitPerClient((c) => ({ name: route, ...c.get("deps").config.auth.rateLimit[route] }), {
    tooMany: (retryAfter) =>
      new AuthError(429, "over_request_rate_limit", requestRateMessage(retryAfter), {
        "Retry-After": String(retryAfter),
      }),
    unavailable: unexpectedFailure,
  });
}

const readBody = jsonBody(AUTH_BODY_ERRORS);

/** Phone sign-in and link verification are refused before the body's rules are checked. */
const refuseOtherChannels: MiddlewareHandler<AppEnv> = async (c, next) => {
  const input = (await c.req.json()) as Record<string, unknown>;
  if (input.phone !== undefined) throw phoneNotEnabled();
  if (input.token_hash !== undefined) throw notEnabled("Verifying a link (token_hash)", "feature_not_enabled");
  await next();
};

/**
 * Below the consent age a parent decides (issue 23): while this device's age answer (the
 * `hwh_age` cookie, Path=/) says so, no code is sent or checked and nothing is stored or counted,
 * not even the client's requests. Only answering the age question below the consent age sets it,
 * so operators and adults sign in as before.
 */
const refuseChildren: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (await parentMustDecide(c.get("deps"), c.req.raw)) throw parentNeededToSignIn();
  await next();
};

authRoutes.post(
  "/otp",
  refuseChildren,
  rateLimited("otp"),
  readBody,
  refuseOtherChannels,
  validJson(otpSchema, AUTH_BODY_ERRORS),
  async (c) => {
    const input = c.req.valid("json");
    const request = { email: input.email, createUser: input.create_user, data: input.data, device: getCookie(c, DEVICE_COOKIE) };
    await requestCode(c.get("deps"), request, (work) => c.executionCtx.waitUntil(work));
    return c.json({});
  },
);

authRoutes.post(
  "/verify",
  refuseChildren,
  rateLimited("verify"),
  readBody,
  refuseOtherChannels,
  validJson(verifySchema, AUTH_BODY_ERRORS),
  async (c) => {
    const input = c.req.valid("json");
    const deps = c.get("deps");
    const session = await verifyCode(deps, origin(c), { email: input.email, token: input.token });
    // This device has signed in as the address: its own allowance of codes from now on (device.ts).
    const cookie = await deviceToken(jwtSecret(deps.config), session.user.email, deps.now());
    setCookie(c, DEVICE_COOKIE, cookie, deviceCookieOptions(deps.config.isDevelopment));
    return c.json(session);
  },
);

authRoutes.post(
  "/token",
  async (c, next) => {
    const grantType = c.req.query("grant_type");
    if (grantType !== "refresh_token") {
      if (grantType === undefined || grantType === "") throw validationFailed("grant_type is required: use grant_type=refresh_token.");
      throw notEnabled(`Sign-in with grant_type=${grantType.slice(0, 40)}`, "provider_disabled");
    }
    return next();
  },
  rateLimited("token"),
  readBody,
  validJson(refreshSchema, AUTH_BODY_ERRORS),
  async (c) => c.json(await refreshSession(c.get("deps"), origin(c), c.req.valid("json").refresh_token)),
);

authRoutes.get("/user", async (c) => {
  const { user } = await authenticate(c.get("deps"), origin(c), c.req.header("authorization"));
  return c.json(userJson(user));
});

authRoutes.post("/logout", async (c) => {
  const scope = readLogoutScope(c.req.query("scope"));
  await signOut(c.get("deps"), origin(c), c.req.header("authorization"), scope);
  return c.body(null, 204);
});

// Read-only descriptions some clients and tools ask for.

authRoutes.get("/settings", (c) =>
  c.json({
    external: { email: true, phone: false, anonymous_users: false },
    disable_signup: false,
    mailer_autoconfirm: false,
    phone_autoconfirm: false,
    sms_provider: "",
    saml_enabled: false,
  }),
);

authRoutes.get("/health", (c) =>
  c.json({ name: "GoTrue", version: "subset", description: `${BRAND_NAME} e-mail code sign-in (GoTrue-compatible subset)` }),
);

/** Access tokens are signed with a shared secret (HS256), which is never published. */
authRoutes.get("/.well-known/jwks.json", (c) => c.json({ keys: [] }));

// Admin routes: each client's requests are counted first (AUTH_RATE_LIMIT_ADMIN, so the key
// cannot be guessed at speed), then the key is checked before anything else, so without it
// nothing is revealed.

authRoutes.use("/admin/*", rateLimited("admin"), async (c, next) => {
  await requireAdmin(c.get("deps").config, c.req.header("authorization"));
  await next();
});

authRoutes.get("/admin/users", async (c) => {
  const pagination = readPagination(c.req.query("page"), c.req.query("per_page"));
  const { users, total } = await adminListUsers(c.get("deps"), pagination);
  const lastPage = Math.max(1, Math.ceil(total / pagination.perPage));
  const link = (page: number, rel: string) => `</admin/users?page=${page}&per_page=${pagination.perPage}>; rel="${rel}"`;
  const links = [...(pagination.page < lastPage ? [link(pagination.page + 1, "next")] : []), link(lastPage, "last")];
  c.header("X-Total-Count", String(total));
  c.header("Link", links.join(", "));
  c.header("Access-Control-Expose-Headers", `${API_VERSION_HEADER}, X-Total-Count, Link`);
  return c.json({ users, aud: "authenticated" });
});

authRoutes.get("/admin/users/:id", async (c) => c.json(await adminGetUser(c.get("deps"), c.req.param("id"))));

authRoutes.delete("/admin/users/:id", async (c) => {
  await adminDeleteUser(c.get("deps"), c.req.param("id"));
  return c.json({});
});

refuseNotEnabled(authRoutes);

/**
 * A known path asked with another method is a 405 whose Allow lists the methods of its routes
 * (read from Hono's route table, so it cannot disagree with the routes above); any other path
 * under /auth/v1 is a GoTrue-style 404.
 */
authRoutes.all(
  "*",
  noRoute(() => authRoutes, {
    methodNotAllowed: (c, allowed) =>
      new AuthError(405, "method_not_allowed", `Use ${allowed.join(" or ")} for /auth/v1${pathInApp(c)}.`, { Allow: allowed.join(", ") }),
    notFound: (c) => new AuthError(404, "not_found", `No route for ${c.req.method} /auth/v1${pathInApp(c).slice(0, 200)}.`),
  }),
);

/**
 * /auth/* outside /auth/v1 (another version, a typo): sign-in clients read GoTrue's error shape
 * at any path under /auth, so this answers a 404 in it, with the same headers.
 */
export const authElsewhere = new Hono<AppEnv>();
authElsewhere.all("*", (c) => {
  c.header(API_VERSION_HEADER, API_VERSION);
  c.header("Cache-Control", "no-store");
  return authErrorResponse(c, new AuthError(404, "not_found", `No route for ${c.req.method} ${c.req.path.slice(0, 200)}.`));
});
