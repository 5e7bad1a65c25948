import type { Deps } from "../../deps";
import { countryCode } from "../../shared/consent-ages";

/**
 * The visitor's country, for the consent age (docs/api.md "The age question"): Cloudflare's reading
 * of the request (request.cf.country); in development only, the CF-IPCountry header wins (miniflare
 * always reads "US", so a developer or a test names the country this way; in production anyone
 * could send the header, so it is never read there); DEFAULT_COUNTRY when neither names one; null
 * (unknown: the strictest consent age) when that is empty too.
 */
export function visitorCountry(deps: Pick<Deps, "config">, request: Request): string | null {
  if (deps.config.isDevelopment) {
    const header = countryCode(request.headers.get("cf-ipcountry"));
    if (header) return header;
  }
  const cf = (request as Request & { cf?: { country?: unknown } }).cf;
  const read = countryCode(typeof cf?.country === "string" ? cf.country : null);
  return read ?? countryCode(deps.config.age.defaultCountry);
}
