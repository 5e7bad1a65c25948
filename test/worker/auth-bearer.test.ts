import { describe, expect, it } from "vitest";
import { bearerToken, isAdminKey } from "../../worker/features/sign-in/bearer";
import { readConfig } from "../../worker/platform/config/config";

// Bearer parsing and the admin-key check, shared by /auth/v1/admin and /api/admin.

const STRONG_KEY = "k3y-9f8e7d6c5b4a3210-fedcba9876543210-zz";
const withKey = (key: string) => readConfig({ AUTH_ADMIN_KEY: key } as Env);

describe("bearerToken", () => {
  it("reads the token of a Bearer header, whatever the scheme's case", () => {
    expect(bearerToken("Bearer abc.def")).toBe("abc.def");
    expect(bearerToken("bearer   abc ")).toBe("abc");
    expect(bearerToken("BEARER abc")).toBe("abc");
  });

  it("finds no token in anything else", () => {
    for (const header of [undefined, null, "", "Bearer", "Bearer ", "Basic abc", "Bearer a b", "Token abc"]) {
      expect(bearerToken(header)).toBeNull();
    }
  });
});

describe("isAdminKey", () => {
  it("accepts exactly the configured strong key", async () => {
    const config = withKey(STRONG_KEY);
    expect(await isAdminKey(config, STRONG_KEY)).toBe(true);
    expect(await isAdminKey(config, `${STRONG_KEY}x`)).toBe(false);
    expect(await isAdminKey(config, STRONG_KEY.slice(0, -1))).toBe(false);
    expect(await isAdminKey(config, "")).toBe(false);
  });

  it("opens nothing while the configured key is weak or missing, even to that key", async () => {
    for (const weak of ["", "short-key", "secretsecretsecretsecretsecretsecret", "a".repeat(64)]) {
      expect(await isAdminKey(withKey(weak), weak)).toBe(false);
    }
  });
});
