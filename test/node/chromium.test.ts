/**
 * The browser finder (test/support/chromium.ts) on fake machines: a set of executable files and
 * the directories holding them, a home directory, an environment and a platform.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ChromiumNotFoundError, findChromium, type ChromiumLookup } from "../support/chromium.ts";

/** A machine whose only executables are `files` (directories are what the files imply). */
function machine(files: string[], options: Partial<Omit<ChromiumLookup, "isExecutable" | "readdir">> = {}): ChromiumLookup {
  const executables = new Set(files);
  return {
    env: {},
    home: "/home/dev",
    platform: "linux",
    cwd: "/work/project",
    playwrightDir: "/work/project/node_modules/playwright-core",
    ...options,
    isExecutable: (file) => executables.has(file),
    readdir: (dir) => {
      const prefix = dir.endsWith("/") ? dir : `${dir}/`;
      const names = files.filter((file) => file.startsWith(prefix)).map((file) => file.slice(prefix.length).split("/")[0]!);
      return [...new Set(names)];
    },
  };
}

/** The error findChromium throws on `lookup` (fails the test when it finds a browser). */
function failure(lookup: ChromiumLookup): ChromiumNotFoundError {
  try {
    const found = findChromium(lookup);
    throw new Error(`found ${found}`);
  } catch (error) {
    expect(error).toBeInstanceOf(ChromiumNotFoundError);
    return error as ChromiumNotFoundError;
  }
}

const PW_LINUX = "/home/dev/.cache/ms-playwright";

describe("findChromium", () => {
  it("takes CHROMIUM_PATH first when it is an executable file", () => {
    const lookup = machine(["/opt/chrome/chrome", "/usr/bin/chromium", `${PW_LINUX}/chromium-1200/chrome-linux64/chrome`], {
      env: { CHROMIUM_PATH: "/opt/chrome/chrome" },
    });
    expect(findChromium(lookup)).toBe("/opt/chrome/chrome");
  });

  it("fails, naming CHROMIUM_PATH and how to get a browser, when CHROMIUM_PATH is not an executable file (no fallback)", () => {
    const error = failure(machine(["/usr/bin/chromium"], { env: { CHROMIUM_PATH: "/nonexistent" } }));
    expect(error.message).toContain("CHROMIUM_PATH is set to /nonexistent");
    expect(error.message).toContain("apt-get install chromium");
    expect(error.message).toContain("npx playwright install chromium");
  });

  it("then Playwright's newest Chromium on Linux, before the system's", () => {
    const lookup = machine([
      "/usr/bin/chromium",
      `${PW_LINUX}/chromium-1100/chrome-linux/chrome`,
      `${PW_LINUX}/chromium-1200/chrome-linux64/chrome`,
      `${PW_LINUX}/chromium-999/chrome-linux/chrome`,
      `${PW_LINUX}/chromium_headless_shell-1300/chrome-headless-shell-linux64/chrome-headless-shell`,
    ]);
    expect(findChromium(lookup)).toBe(`${PW_LINUX}/chromium-1200/chrome-linux64/chrome`);
  });

  it("finds Playwright's older layout and the arm64 build", () => {
    expect(findChromium(machine([`${PW_LINUX}/chromium-1100/chrome-linux/chrome`]))).toBe(`${PW_LINUX}/chromium-1100/chrome-linux/chrome`);
    expect(findChromium(machine([`${PW_LINUX}/chromium-1200/chrome-linux-arm64/chrome`]))).toBe(
      `${PW_LINUX}/chromium-1200/chrome-linux-arm64/chrome`,
    );
  });

  it("honours XDG_CACHE_HOME and PLAYWRIGHT_BROWSERS_PATH (absolute, relative to the project, and 0)", () => {
    const xdg = "/home/dev/xdg/ms-playwright/chromium-1200/chrome-linux64/chrome";
    expect(findChromium(machine([xdg], { env: { XDG_CACHE_HOME: "/home/dev/xdg" } }))).toBe(xdg);

    const custom = "/srv/browsers/chromium-1200/chrome-linux64/chrome";
    expect(
      findChromium(
        machine([custom, `${PW_LINUX}/chromium-1300/chrome-linux64/chrome`], { env: { PLAYWRIGHT_BROWSERS_PATH: "/srv/browsers" } }),
      ),
    ).toBe(custom);

    const relative = "/work/project/.browsers/chromium-1200/chrome-linux64/chrome";
    expect(findChromium(machine([relative], { env: { PLAYWRIGHT_BROWSERS_PATH: ".browsers" } }))).toBe(relative);

    const local = "/work/project/node_modules/playwright-core/.local-browsers/chromium-1200/chrome-linux64/chrome";
    expect(findChromium(machine([local], { env: { PLAYWRIGHT_BROWSERS_PATH: "0" } }))).toBe(local);
  });

  it("then the usual system paths on Linux, in order", () => {
    expect(findChromium(machine(["/usr/bin/google-chrome", "/usr/bin/chromium-browser"]))).toBe("/usr/bin/chromium-browser");
    expect(findChromium(machine(["/snap/bin/chromium"]))).toBe("/snap/bin/chromium");
    expect(findChromium(machine(["/usr/bin/google-chrome-stable"]))).toBe("/usr/bin/google-chrome-stable");
  });

  it("on macOS: Playwright's cache in ~/Library/Caches (both layouts), then the applications", () => {
    const mac = { platform: "darwin" as const, home: "/Users/dev" };
    const caches = "/Users/dev/Library/Caches/ms-playwright";
    const testing = `${caches}/chromium-1200/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing`;
    const older = `${caches}/chromium-1100/chrome-mac/Chromium.app/Contents/MacOS/Chromium`;
    const chrome = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome";
    expect(findChromium(machine([chrome, older, testing], mac))).toBe(testing);
    expect(findChromium(machine([chrome, older], mac))).toBe(older);
    expect(findChromium(machine([chrome, "/Applications/Chromium.app/Contents/MacOS/Chromium"], mac))).toBe(chrome);
    expect(findChromium(machine(["/Applications/Chromium.app/Contents/MacOS/Chromium"], mac))).toBe(
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
    );
    // Linux paths mean nothing there.
    expect(failure(machine(["/usr/bin/chromium"], mac)).message).toContain(path.join(caches, "chromium-*"));
  });

  it("skips a Playwright directory without the executable (an interrupted install)", () => {
    const lookup = machine([`${PW_LINUX}/chromium-1300/INSTALLATION_COMPLETE`, "/usr/bin/chromium"]);
    expect(findChromium(lookup)).toBe("/usr/bin/chromium");
  });

  it("with none, fails with one message saying where it looked and how to get one", () => {
    const error = failure(machine([]));
    expect(error.message).toContain(`${PW_LINUX}/chromium-*`);
    expect(error.message).toContain("/usr/bin/chromium");
    expect(error.message).toContain("sudo apt-get install chromium");
    expect(error.message).toContain("npx playwright install chromium");
    expect(error.message).toContain("set CHROMIUM_PATH");
  });
});
