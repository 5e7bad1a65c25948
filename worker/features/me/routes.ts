import { Hono, type Context } from "hono";
import { bodyFormatOf, jsonBody, readBodyObject, UNSUPPORTED_MEDIA_TYPE, validBody } from "../../platform/http/body";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import { clientAddress, clientKey } from "../../platform/http/client";
import { ME_DATA_FILENAME, type MeConfirmationSent } from "../../shared/me";
import { strictFields } from "../../shared/text";
import { birthFields } from "../../shared/waitlist";
import { ageHeaders, decideAge } from "../age";
import { forgetDevice } from "../sign-in";
import { joinConfirmed, leaveWaitlist } from "../waitlist";
import { childErased, eraseChild, eraseMe, myData } from "./account";
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

/**
 * POST /api/me/waitlist's body: the age question's answer (issue 23), as JSON; none at all (no
 * Content-Type, no body) when the `hwh_age` cookie answers for it. Any other field is a 400.
 */
async function birthAnswer(c: Context<MeEnv>): Promise<{ birthMonth: unknown; birthYear: unknown }> {
  if (!c.req.header("content-type")) return { birthMonth: undefined, birthYear: undefined };
  if (bodyFormatOf(c.req.header("content-type")) !== "json") throw API_BODY_ERRORS.unsupportedMediaType(UNSUPPORTED_MEDIA_TYPE.json);
  const body = validBody(ME_JOIN_SCHEMA, await readBodyObject(c, "json", API_BODY_ERRORS), API_BODY_ERRORS);
  return { birthMonth: body.birth_month, birthYear: body.birth_year };
}
const ME_JOIN_SCHEMA = strictFields(birthFields);

export const meRoutes = new Hono<MeEnv>()
  .use("*", signedInOnly)

  .get("/", answer)

  /** Join with one click: signing in proved the address, so the entry is confirmed at once. */
  .post("/waitlist", meWriteLimit, async (c) => {
    const deps = c.get("deps");
    const age = await decideAge(deps, { ...(await birthAnswer(c)), request: c.req.raw });
    for (const [name, value] of Object.entries(ageHeaders(age))) c.header(name, value);
    // Below the consent age, a parent decides: nothing is stored (the public join's parent step
    // asks them). The signed-in address is now known to be a child's (signed in before answering,
    // or on another device): it is erased as DELETE /api/me erases, this device's cookie cleared
    // (after the age cookie, set above: the error adds no header that would replace it).
    if (age.parentNeeded) {
      await eraseChild(deps, c.get("user"));
      forgetDevice(c, deps.config.isDevelopment);
      throw childErased();
    }
    await joinConfirmed(deps, c.get("user").email, { ...request(c), age });
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
