import type { Page } from "playwright-core";
import { expect } from "vitest";
import { LOGIN_URL } from "../../web/src/admin/session";
import { login } from "../../web/src/pages/login/content";
import { CONSOLE_PATH } from "../../web/src/routes";
import { latestMailId, readCode } from "./support";

/**
 * Signs an operator in through the console's own sign-in page (the code read from the dev mailbox)
 * and waits for the console. The console e2e files share it; each signs in as an operator of its
 * own (test/e2e/global-setup.ts OPERATOR_EMAILS), since one address gets one code per cooldown.
 */
export async function signInToConsole(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}${LOGIN_URL}`);
  // The home page renders first and has email fields of its own: wait for the sign-in page.
  await page.getByRole("heading", { name: "Sign In" }).waitFor();
  const mark = await latestMailId(baseUrl);
  await page.getByLabel(login.emailLabel).fill(email);
  await page.getByRole("button", { name: login.emailStep.submit }).click();
  await page.getByRole("heading", { name: "Verify Code" }).waitFor();
  await page.getByLabel(login.codeLabel).fill(await readCode(baseUrl, email, { after: mark }));
  await page.getByRole("button", { name: login.codeStep.submit }).click();
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 5_000 }).toBe(CONSOLE_PATH);
}
