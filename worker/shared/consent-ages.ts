/**
 * The age of digital consent per country (GDPR Article 8 in the EU and EEA, UK GDPR): below it a
 * parent or guardian decides. Everywhere else the product uses US COPPA's 13. The one table of the
 * product: the worker decides with it (worker/features/age), the privacy policy prints it.
 * Read 2026-11-28 from the sources named per row; not legal advice: a team launching should have
 * counsel check each row against the national law (README "Students and their parents").
 */

/** Where an age comes from, short enough for the privacy policy's table. */
const EC_2020 = "European Commission, two years of the GDPR (SWD(2020) 115), p. 17";
const BIRD_BIRD = "Bird & Bird, GDPR tracker: children";

export type ConsentAgeRow = { country: string; name: string; age: 13 | 14 | 15 | 16; source: string };

export const CONSENT_AGES: readonly ConsentAgeRow[] = [
  { country: "AT", name: "Austria", age: 14, source: `${EC_2020}; Datenschutzgesetz §4(4)` },
  { country: "BE", name: "Belgium", age: 13, source: `${EC_2020}; law of 30 July 2018, art. 7` },
  { country: "BG", name: "Bulgaria", age: 14, source: `${EC_2020}; ${BIRD_BIRD}` },
  { country: "HR", name: "Croatia", age: 16, source: `${EC_2020}; ${BIRD_BIRD}` },
  { country: "CY", name: "Cyprus", age: 14, source: `${EC_2020}; law 125(I)/2018, s. 8` },
  { country: "CZ", name: "Czechia", age: 15, source: `${EC_2020}; act 110/2019, s. 7` },
  { country: "DK", name: "Denmark", age: 13, source: `${EC_2020}; Databeskyttelsesloven §6(2)` },
  { country: "EE", name: "Estonia", age: 13, source: `${EC_2020}; Isikuandmete kaitse seadus §8` },
  { country: "FI", name: "Finland", age: 13, source: `${EC_2020}; Tietosuojalaki 1050/2018, s. 5` },
  { country: "FR", name: "France", age: 15, source: `${EC_2020}; loi Informatique et Libertés, art. 45` },
  { country: "DE", name: "Germany", age: 16, source: `${EC_2020}; GDPR art. 8(1) (no national rule)` },
  { country: "GR", name: "Greece", age: 15, source: `${EC_2020}; law 4624/2019, art. 21` },
  { country: "HU", name: "Hungary", age: 16, source: `${EC_2020}; ${BIRD_BIRD}` },
  { country: "IE", name: "Ireland", age: 16, source: `${EC_2020}; Data Protection Act 2018, s. 31` },
  { country: "IT", name: "Italy", age: 14, source: `${EC_2020}; Codice privacy art. 2-quinquies` },
  { country: "LV", name: "Latvia", age: 13, source: `${EC_2020}; Personal Data Processing Law, s. 33` },
  { country: "LT", name: "Lithuania", age: 14, source: `${EC_2020}; Law on Legal Protection of Personal Data, art. 6` },
  { country: "LU", name: "Luxembourg", age: 16, source: `${EC_2020}; GDPR art. 8(1) (no national rule)` },
  { country: "MT", name: "Malta", age: 13, source: `${EC_2020}; S.L. 586.11, reg. 3` },
  { country: "NL", name: "Netherlands", age: 16, source: `${EC_2020}; UAVG art. 5` },
  { country: "PL", name: "Poland", age: 16, source: `${EC_2020}; GDPR art. 8(1) (no national rule)` },
  { country: "PT", name: "Portugal", age: 13, source: `${EC_2020}; law 58/2019, art. 16` },
  { country: "RO", name: "Romania", age: 16, source: `${EC_2020}; GDPR art. 8(1) (no national rule)` },
  { country: "SK", name: "Slovakia", age: 16, source: `${EC_2020}; act 18/2018, s. 15` },
  { country: "SI", name: "Slovenia", age: 15, source: `${BIRD_BIRD}; ZVOP-2 (2022), art. 8` },
  { country: "ES", name: "Spain", age: 14, source: `${EC_2020}; LOPDGDD 3/2018, art. 7` },
  { country: "SE", name: "Sweden", age: 13, source: `${EC_2020}; lag 2018:218, ch. 2 s. 4` },
  { country: "IS", name: "Iceland (EEA)", age: 13, source: `${BIRD_BIRD}; act 90/2018, art. 10` },
  { country: "LI", name: "Liechtenstein (EEA)", age: 16, source: `${BIRD_BIRD}; GDPR art. 8(1) (no national rule)` },
  { country: "NO", name: "Norway (EEA)", age: 13, source: `${BIRD_BIRD}; personopplysningsloven §5` },
  { country: "GB", name: "United Kingdom", age: 13, source: "UK GDPR art. 8; Data Protection Act 2018, s. 9" },
  // Parts of the EU that Cloudflare names by their own codes: the age of the state they belong to.
  { country: "GP", name: "Guadeloupe (France)", age: 15, source: "as France (an outermost region of the EU)" },
  { country: "MQ", name: "Martinique (France)", age: 15, source: "as France (an outermost region of the EU)" },
  { country: "GF", name: "French Guiana (France)", age: 15, source: "as France (an outermost region of the EU)" },
  { country: "RE", name: "Réunion (France)", age: 15, source: "as France (an outermost region of the EU)" },
  { country: "YT", name: "Mayotte (France)", age: 15, source: "as France (an outermost region of the EU)" },
  { country: "MF", name: "Saint-Martin (France)", age: 15, source: "as France (an outermost region of the EU)" },
  { country: "AX", name: "Åland (Finland)", age: 13, source: "as Finland (part of the EU)" },
];

/** Everywhere the table does not name (COPPA's age, the US and the rest of the world). */
export const DEFAULT_CONSENT_AGE = 13;
/** A visitor whose country is not known (no reading, Tor's "T1", "XX"): the strictest age of the table. */
export const UNKNOWN_COUNTRY_CONSENT_AGE = 16;

const BY_COUNTRY = new Map(CONSENT_AGES.map((row) => [row.country, row.age]));

/** A country code as Cloudflare gives it, upper-cased; null when it names no country. */
export function countryCode(value: string | null | undefined): string | null {
  const code = (value ?? "").trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && code !== "XX" && code !== "T1" ? code : null;
}

/**
 * The age below which a parent decides for a visitor in `country`: the table's age (13 where it
 * names none), the strictest for an unknown country, never below `atLeast`
 * (PARENTAL_CONSENT_UNDER, for a team that wants to be stricter everywhere).
 */
export function consentAge(country: string | null, atLeast = DEFAULT_CONSENT_AGE): number {
  const code = countryCode(country);
  const age = code === null ? UNKNOWN_COUNTRY_CONSENT_AGE : (BY_COUNTRY.get(code) ?? DEFAULT_CONSENT_AGE);
  return Math.max(age, atLeast);
}
