/**
 * The legal pages' text (spec §2), apart from content.ts: the two pages are a chunk of their own
 * (pages/route-chunks.tsx), so the home page's first-load script does not carry their text. The
 * launch team edits it here, with the rest of the copy in content.ts. Words only, their types
 * taken from the values (`as const`): components/LegalPage.tsx says what a page may hold.
 */
import { FOR_PARENTS_LINK, FOR_PARENTS_PATH, FOR_PARENTS_SECTION } from "@shared/for-parents";
import { CONSENT_AGES, DEFAULT_CONSENT_AGE, UNKNOWN_COUNTRY_CONSENT_AGE } from "@shared/consent-ages";

/** The consent ages' countries grouped by age, youngest first (every row of CONSENT_AGES, in the table's order). */
export const CONSENT_AGE_GROUPS = [...new Set(CONSENT_AGES.map((row) => row.age))]
  .sort((a, b) => a - b)
  .map((age) => ({ age, names: CONSENT_AGES.filter((row) => row.age === age).map((row) => row.name) }));

/** A row's "Where": its countries, and everywhere else (the default age) or an unknown country (the highest). */
export function consentAgeWhere(age: number, names: readonly string[]): string {
  const extra = [
    ...(age === DEFAULT_CONSENT_AGE ? ["everywhere else, the United States included"] : []),
    ...(age === UNKNOWN_COUNTRY_CONSENT_AGE ? ["wherever we cannot tell the country"] : []),
  ];
  return [...names, ...extra].join(", ");
}
import { KEPT_AFTER_ERASURE } from "@shared/erasure";
import { PUBLISHED_RETENTION_DAYS as DAYS } from "@shared/retention";
import { brand, contactEmail } from "./content";
import { ROUTES, SECTION_IDS } from "./routes";

/**
 * The privacy policy's text last changed on this day (it names what is stored and why); the
 * terms of service keep the spec's date.
 */
const PRIVACY_LAST_UPDATED = "December 5, 2026";

/** The bands an entry keeps (worker/shared/age.ts AGE_BANDS), in words. */
const BANDS_IN_WORDS = "under 13, 13 to 15, 16 to 17, or 18 and over";

/**
 * What the site stores about a person, and why: keep it in step with worker/platform/db/schema.ts (the
 * waitlist's attribution columns, its confirmation, place and referral columns, the contact
 * form's fields, the sign-in sessions) and with
 * the retention and erasure in docs/api.md (the cron run's deletions at the end of "Sign-in") and
 * docs/operating.md "Erasing a person" (what an erasure deletes; what it keeps is worker/shared/erasure.ts,
 * which the data download repeats).
 */
export const privacyPolicy = {
  title: "Privacy Policy",
  lastUpdated: PRIVACY_LAST_UPDATED,
  lastUpdatedLabel: "Last updated",
  backToHome: "Back to Home",
  sections: [
    {
      heading: "Introduction",
      paragraphs: [
        // Issue 23: first, what a 13-year-old needs to know, in short sentences.
        "In short: we keep your email address so we can tell you when we launch. We don't sell it and we don't show ads. " +
          `If you don't confirm it, we delete it after ${DAYS.RETENTION_UNCONFIRMED_DAYS} days. ` +
          "You can see, download or delete what we keep at any time on your My place page.",
        `If you are too young to agree on your own (under ${DEFAULT_CONSENT_AGE} in most places), a parent or guardian decides. ` +
          "We then don't keep your own email address.",
      ],
      // The part for parents below, for a parent who opened the policy from its top.
      links: [{ label: `${FOR_PARENTS_LINK}: what we keep about children and teenagers, and your rights`, href: FOR_PARENTS_PATH }],
      after: [
        `${brand.name} ("we", "us") is an AI homework helper for students that is preparing to launch. ` +
          "This policy explains what we collect through this website, why, how long we keep it, and the choices you have.",
        "By using the website you agree to the practices described here. We keep this policy short " + "because we collect very little.",
      ],
    },
    {
      heading: "Information We Collect",
      paragraphs: ["We collect what you give us, and a few details the website records while you use it:"],
      items: [
        "The email address you enter to join the waitlist or in the contact form, and when you joined.",
        "When you join the waitlist, your answer to one question: the month and year you were born. From it we keep only " +
          `your age band (${BANDS_IN_WORDS}), never the month or year, and with it the country your visit comes from.`,
        "With your waitlist entry, how you found us: the campaign named in the link you followed (its utm_source, utm_medium " +
          "and utm_campaign), the website that referred you (its name only, not the page) and which of our signup forms you used.",
        "When you confirm your waitlist place from the email we send you: when you confirmed, and from that your place in line.",
        "With a confirmed place, your referral code (the code in your referral link), who referred you if you joined with " +
          "someone's link, and how many friends have joined and confirmed with yours. To notice abuse of referrals we keep " +
          "a keyed hash of your mailbox (not the address) and of the network a referred friend confirmed from (not the IP address).",
        "When you send the contact form: your name, email address and message, and when you sent it.",
        "When you sign in with an emailed code: your email address, and for each device you sign in on, when you signed in " +
          "and last used it, its IP address and its browser's user agent (the browser and system it reports).",
        "Our two cookies, neither used for tracking. The first, hwh_device, set when you sign in and kept by your browser for " +
          "180 days: it shows that this device has signed in with your address (it holds a keyed hash of the address, never " +
          "the address) and is sent only to our sign-in service.",
        "The second, hwh_age, set when you answer the age question and kept for 24 hours: it holds your age band and whether " +
          "a parent or guardian decides first, signed so that it cannot be changed (never your birth month or year).",
        "To limit abuse, a count of recent requests from each IP address (or network), which is deleted once its time window ends.",
      ],
      parts: [
        {
          // The "For parents" links' target (the forms', the footer's, the parent's email): FOR_PARENTS_PATH.
          id: FOR_PARENTS_SECTION,
          heading: "For parents: children and teenagers",
          blocks: [
            {
              paragraphs: [
                "Students of every age use homework helpers, so everyone who joins the waitlist is asked the month and " +
                  "year they were born. We keep only the age band and the country, never the birth month or year. The " +
                  "answer holds for 24 hours, so it cannot be changed by trying again.",
                "Below the age of digital consent in their country (the table below), a child cannot join on their own: " +
                  "a parent or guardian decides. We then ask for the parent's email address instead of the child's. We " +
                  "don't keep the child's address and we never email it.",
                "Until the parent answers, we keep only the parent's email address, the age band, the country and when " +
                  "we asked. We send the parent one email that explains what we would keep and asks them. If they say " +
                  `no, we delete the request at once; without an answer, we delete it after ${DAYS.RETENTION_PARENTAL_REQUEST_DAYS} days.`,
              ],
              items: [
                "When the parent agrees: a waitlist entry for the parent's own email address, marked as on behalf of a " +
                  "child, with the age band, the country and when the parent agreed. We use it only to keep the place " +
                  "in line and to email the parent when we launch: our emails go to the parent, never to the child.",
                "An entry a parent made has no referral code or link. Teenagers who join on their own keep their place " +
                  "and their link, but we offer no rewards for bringing friends to anyone under 18.",
                "We never sell or pass on anything about a child or teenager to anyone, and we never use it for ads.",
              ],
            },
            {
              heading: "A parent's rights, and how to use them",
              paragraphs: [
                "A parent or guardian can at any time see what we keep about their child, have it deleted, and " +
                  "refuse any further collection. Here is how:",
              ],
              items: [
                {
                  text: "To see it, download it or delete it: sign in with your own email address (the one we emailed) on",
                  link: { label: "My place", href: `#${ROUTES.me}` },
                  after: ".",
                },
                "To refuse: say no on the page our email links to. We delete the request at once and collect nothing more.",
                {
                  text: "Or ask us to do any of this for you: write to us with",
                  link: { label: "the contact form", href: `#${SECTION_IDS.contact}` },
                  after: ` or at ${contactEmail}.`,
                },
              ],
            },
            {
              heading: "The age of consent, by country",
              paragraphs: [
                "Below these ages a parent or guardian decides (the age of digital consent: GDPR Article 8 in the EU " +
                  `and EEA, and the UK GDPR). Everywhere else it is ${DEFAULT_CONSENT_AGE}, the age the US children's ` +
                  `privacy rule (COPPA) sets. When we cannot tell the country, it is ${UNKNOWN_COUNTRY_CONSENT_AGE}.`,
                "We may choose to ask a parent up to an older age everywhere, never a younger one.",
              ],
              // The table the worker decides with (worker/shared/consent-ages.ts), every country, grouped
              // by age: four rows read on a 360 px screen and keep the prerendered page small on a slow
              // phone. Each row's source stays with the table (and the README), not in the policy.
              table: {
                caption: "Age below which a parent decides",
                head: ["Age", "Where"],
                rows: CONSENT_AGE_GROUPS.map(({ age, names }) => [String(age), consentAgeWhere(age, names)] as const),
              },
            },
          ],
        },
      ],
    },
    {
      heading: "Use of Your Information",
      paragraphs: [
        "We use this information only to run the website and the waitlist. We do not sell your information, we do not " +
          "show ads, and this website loads no third-party trackers.",
      ],
      items: [
        "Your email address: to keep your place on the waitlist and tell you when the product launches, to answer your " +
          "messages and to sign you in. Our team is emailed each new signup and message. If you are 18 or over, your address, " +
          "how you found us and your place may also be sent to the tools our team uses to run the waitlist (such as a " +
          "contact list); when you delete your data, we tell those tools to delete it too. Nothing about a child or " +
          "teenager is ever sent to them.",
        "The confirmation: to make sure the address is yours before we count your place, and to send no more than a few " +
          "confirmation emails a day to any address.",
        "Your place in line, referral code and referrals: to show you your place and link, to move you up for each friend " +
          "who joins with your link and confirms, and to show our team the top referrers. The hashes of mailboxes and " +
          "networks stop referrals to yourself and let us flag many referrals from one network; we never sell or share them.",
        "The campaign, referring website and signup form: to learn which of our links and campaigns bring people to the " +
          "waitlist, counted together in our statistics.",
        "Your name and message: to answer you.",
        "Sign-in times, IP address and user agent: to keep sign-in secure, so that you and we can tell your devices apart " +
          "and notice a sign-in that is not yours. The request counts per IP address stop floods of signups and guesses at codes.",
        "The hwh_device cookie: so that a device you signed in on can always ask for a new code, even when others have " +
          "asked for too many codes for your address.",
        "Your age band and country: to know whether a parent or guardian decides first, and to give no rewards for " +
          "referrals to anyone under 18. The hwh_age cookie keeps the answer for a day, so that it is not answered again differently.",
      ],
      // The schedule the cron enforces (worker/features/retention/): the same values, which production holds it to.
      table: {
        caption: "How long we keep it",
        head: ["What", "How long"],
        rows: [
          ["A waitlist entry you have not confirmed", `${DAYS.RETENTION_UNCONFIRMED_DAYS} days after you last joined`],
          [
            "A parent's request for a child, not yet answered",
            `${DAYS.RETENTION_PARENTAL_REQUEST_DAYS} days after we asked, or at once if the parent says no`,
          ],
          ["A confirmed waitlist entry", "Until you delete it or ask us to"],
          ["The hash of the network a referred friend confirmed from", `${DAYS.RETENTION_REFERRAL_NETWORK_DAYS} days`],
          ["A message sent with the contact form", `${DAYS.RETENTION_CONTACT_DAYS} days`],
        ],
      },
      after: [
        "Besides these: sign-in codes for at most a day; a signed-in device's record until you log out on it, and its " +
          "used session tokens for 30 days.",
        "You can ask us at any time to remove your email address from the waitlist or to delete your data: we then delete " +
          "your waitlist entry, your messages, your sign-in records and your email preferences, and everything that links " +
          "others to you (the referral credits you earned, your referral code on your friends' entries, and your inbox's " +
          "key in the referral credits you gave, which stay only as the fingerprint below). " +
          "Signed in, you can do it yourself on your My place page, where you can also leave the waitlist and download your data.",
        "After a deletion we keep only the following, each for the reason given (your data download lists them too):",
        ...KEPT_AFTER_ERASURE,
      ],
    },
    {
      heading: "Security",
      paragraphs: [
        "Everything you send travels over an encrypted connection. Sign-in codes and session tokens " +
          "are stored only in hashed form, and access to our systems is limited to the people who run them.",
        "No method of storage or transmission is completely secure, but we work to protect your " +
          "information and will tell you promptly if a breach affects it.",
      ],
    },
    {
      heading: "Contact Us",
      paragraphs: ["Questions about this policy or your data? Write to us at:"],
      email: contactEmail,
    },
  ],
} as const;
