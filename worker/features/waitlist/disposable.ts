import * as MailChecker from "mailchecker";
import { canonicalEmail } from "../../shared/text";

/**
 * Disposable-mail domains, from the maintained list of the npm package mailchecker (thousands
 * of domains; `npm update mailchecker` takes its newer list). Worker only: the list is about
 * 1 MB, never part of the site's JavaScript. Only the list is used, not mailchecker's own address
 * syntax (the waitlist's schema decides what an address is). A subdomain of a listed domain is
 * listed too.
 */
const DOMAINS = MailChecker.blacklist();

/** Read on the address's canonical form (worker/shared/text.ts), so "x@ｍａｉｌｉｎａｔｏｒ.com" is mailinator.com's. */
export function isDisposableAddress(email: string): boolean {
  const address = canonicalEmail(email) ?? email.toLowerCase();
  let domain = address.slice(address.lastIndexOf("@") + 1);
  while (domain.includes(".")) {
    if (DOMAINS.has(domain)) return true;
    domain = domain.slice(domain.indexOf(".") + 1);
  }
  return DOMAINS.has(domain);
}
