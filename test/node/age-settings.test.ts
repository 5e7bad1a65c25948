import { describe, expect, it } from "vitest";
import { readConfig } from "../../worker/platform/config/config";
import { readSettings } from "../../worker/platform/config/settings";

/** Issue 23's settings (docs/configuration.md): their defaults, what each accepts, where they land in the config. */
describe("the age question's settings", () => {
  it("default: a parent decides under 13 at least, no default country, no referral rewards for minors", () => {
    const config = readConfig({});
    expect(config.age).toEqual({ parentalConsentUnder: 13, defaultCountry: "" });
    expect(config.waitlist.minorReferralRewards).toBe(false);
  });

  it("accept 13 to 18, two letters (upper-cased) or empty, true or false", () => {
    const config = readConfig({ PARENTAL_CONSENT_UNDER: "16", DEFAULT_COUNTRY: " de ", MINOR_REFERRAL_REWARDS: "TRUE" });
    expect(config.age).toEqual({ parentalConsentUnder: 16, defaultCountry: "DE" });
    expect(config.waitlist.minorReferralRewards).toBe(true);
    expect(config.invalidSettings).toEqual([]);
  });

  it("report a value they do not accept by name and keep the default", () => {
    const { values, invalid } = readSettings({ PARENTAL_CONSENT_UNDER: "12", DEFAULT_COUNTRY: "USA", MINOR_REFERRAL_REWARDS: "yes" });
    expect(invalid).toEqual([
      "PARENTAL_CONSENT_UNDER (a whole number from 13 to 18)",
      "DEFAULT_COUNTRY (two letters such as US, or empty)",
      "MINOR_REFERRAL_REWARDS (true or false)",
    ]);
    expect(values).toMatchObject({ PARENTAL_CONSENT_UNDER: 13, DEFAULT_COUNTRY: "", MINOR_REFERRAL_REWARDS: false });
  });
});
