import { Hono, type Context } from "hono";
import { jsonBody } from "../../platform/http/body";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import { clientAddress, clientKey } from "../../platform/http/client";
import { ME_DATA_FILENAME, type MeConfirmationSent } from "../../shared/me";
import { forgetDevice } from "../sign-in";
import { joinConfirmed, leaveWaitlist } from "../waitlist";
import { eraseMe, myData } from "./account";
import { meWriteLimit } from "./limits";
import { meAnswer, type MeRequest, resendMine } from "./place";
import { type MeEnv, signedInOnly } from "./signed-in";
import { setSubscribed } from "./subscription";

/**
 * The signed-in joiner's own API, /api/me (docs/api.md "My place API"), behind the "My place" page
 * (/#/me). Every route needs the access token of a sign-in (worker/features/me/signed-in.ts: 401
 * not_signed_in otherwise) and acts on that token's address only. Answers are never stored (the
 * API's Cache-Control: no-store). Every write, and the data download, counts against the user's
 * and the client's allowance first (limits.ts). Each route parses, calls its rule and answers: the waitlist's
 * (worker/features/waitlist/), the place's (place.ts), consent's (subscription.ts), and the data
 * download and erasure (account.ts).
 */

const request = (c: Context<MeEnv>): MeRequest => ({
  origin: new URL(c.req.url).origin,
  network: clientKey(clientAddress(c.req.raw.headers)),
  defer: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

/** GET /api/me's answer for the signed-in address, as it is now. */
const answer = async (c: Context<MeEnv>) => c.json(await meAnswer(c.get("deps"), c.get("user").email, new URL(c.req.url).origin));

/** POST /api/me/subscription's `subscribed`: a boolean, or a 400 naming the field. */
function wantsSubscribed(c: Context<MeEnv>): boolean {
  const subscribed = c.get("requestBody")?.subscribed;
  if (typeof subscribed === "boolean") return subscribed;
  throw API_BODY_ERRORS.invalid({ subscribed: "Say true to get campaign e-mail, false to stop it." });
}

export const meRoutes = new Hono<MeEnv>()
  .use("*", signedInOnly)

  .get("/", answer)

  /** Join with one click: signing in proved the address, so the entry is confirmed at once. */
  .post("/waitlist", meWriteLimit, async (c) => {
    await joinConfirmed(c.get("deps"), c.get("user").email, request(c));
    return answer(c);
  })

  /** Leave the waitlist: the entry and its joiner e-mails are deleted; the sign-in stays. */
  .delete("/waitlist", meWriteLimit, async (c) => {
    await leaveWaitlist(c.get("deps"), c.get("user").email);
    return answer(c);
  })

  /** Send the confirmation e-mail again: only while pending, within the address's daily cap. */
  .post("/confirmation", meWriteLimit, async (c) => {
    await resendMine(c.get("deps"), c.get("user").email, request(c));
    return c.json({ sent: true } satisfies MeConfirmationSent);
  })

  /** Unsubscribe from campaign e-mail (the suppression list, source "me"), or subscribe again. */
  .post("/subscription", meWriteLimit, jsonBody(API_BODY_ERRORS), async (c) => {
    await setSubscribed(c.get("deps"), c.get("user").email, wantsSubscribed(c));
    return answer(c);
  })

  /** Everything stored about the address (account.ts), as a readable download. */
  .get("/data", meWriteLimit, async (c) => {
    const data = await myData(c.get("deps"), c.get("user").email);
    c.header("Content-Disposition", `attachment; filename="${ME_DATA_FILENAME}"`);
    // Indented, for the person who opens the file (c.json writes one line).
    return c.body(`${JSON.stringify(data, null, 2)}\n`, 200, { "Content-Type": "application/json; charset=UTF-8" });
  })

  /**
   * Erase everything (the operator's erasure, audited as "self"): the session ends with the user,
   * and this browser's signed-in device cookie (sign-in's device allowance) is cleared.
   */
  .delete("/", meWriteLimit, jsonBody(API_BODY_ERRORS), async (c) => {
    const erased = await eraseMe(c.get("deps"), c.get("user"), c.get("requestBody")?.confirm);
    forgetDevice(c, c.get("deps").config.isDevelopment);
    return c.json(erased);
  });
