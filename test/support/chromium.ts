/**
 * The Chromium (or Chrome) the browser tests, the web benchmark and web/tools/share-images.ts run,
 * headless and with everything that would reach the network on its own switched off.
 *
 * Where it is looked for, first found wins:
 * 1. `CHROMIUM_PATH`, when set (it must then name an executable file: no fallback);
 * 2. the browsers Playwright installs (`npx playwright install chromium`), newest first, in
 *    `PLAYWRIGHT_BROWSERS_PATH` when set, else ~/.cache/ms-playwright (Linux, or
 *    $XDG_CACHE_HOME/ms-playwright) or ~/Library/Caches/ms-playwright (macOS);
 * 3. the usual system paths: /usr/bin/chromium (Debian's, which .ci/run installs) and the like on
 *    Linux, /Applications/Google Chrome.app and Chromium.app on macOS.
 *
 * Node-only; imported by Node scripts run with type stripping, hence the explicit `.ts` in
 * imports of this file. `node test/support/chromium.ts` prints the browser found, or the help.
 */
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** What the lookup reads of the machine; the tests pass a fake one. */
export type ChromiumLookup = {
  env: Record<string, string | undefined>;
  home: string;
  platform: NodeJS.Platform;
  cwd: string;
  /** Whether `file` is a file this process may execute (symbolic links followed). */
  isExecutable: (file: string) => boolean;
  /** The names in a directory; [] when it cannot be read. */
  readdir: (dir: string) => string[];
  /** playwright-core's package directory (PLAYWRIGHT_BROWSERS_PATH=0 installs below it). */
  playwrightDir?: string;
};

/** No browser was found, or CHROMIUM_PATH names none; the message says how to get one. */
export class ChromiumNotFoundError extends Error {
  override name = "ChromiumNotFoundError";
}

const INSTALL = [
  "  - Debian or Ubuntu: sudo apt-get install chromium",
  "  - any Linux or macOS: npx playwright install chromium (Playwright's build, in its cache)",
];
const HELP = ["Get one of these:", ...INSTALL, "  - or set CHROMIUM_PATH to a Chromium or Chrome executable"].join("\n");

const SYSTEM_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/snap/bin/chromium",
  ],
  darwin: ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"],
};

/** The executable inside one of Playwright's chromium-<revision> directories, by platform (older and newer layouts). */
const PLAYWRIGHT_EXECUTABLES: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ["chrome-linux64/chrome", "chrome-linux-arm64/chrome", "chrome-linux/chrome"],
  darwin: [
    "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "chrome-mac/Chromium.app/Contents/MacOS/Chromium",
  ],
};

/** Where Playwright keeps its browsers, as playwright-core itself decides it. */
function playwrightBrowsersDir(lookup: ChromiumLookup): string | undefined {
  const configured = lookup.env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured === "0") return lookup.playwrightDir ? path.join(lookup.playwrightDir, ".local-browsers") : undefined;
  if (configured) return path.resolve(lookup.env.INIT_CWD || lookup.cwd, configured);
  if (lookup.platform === "darwin") return path.join(lookup.home, "Library", "Caches", "ms-playwright");
  if (lookup.platform === "linux") return path.join(lookup.env.XDG_CACHE_HOME || path.join(lookup.home, ".cache"), "ms-playwright");
  return undefined;
}

/** Every place looked at, in order (CHROMIUM_PATH aside). */
export function chromiumCandidates(lookup: ChromiumLookup): string[] {
  const candidates: string[] = [];
  const browsersDir = playwrightBrowsersDir(lookup);
  if (browsersDir) {
    const revisions = lookup
      .readdir(browsersDir)
      .map((name) => /^chromium-(\d+)$/.exec(name))
      .filter((match) => match !== null)
      .sort((a, b) => Number(b[1]) - Number(a[1]));
    for (const [name] of revisions) {
      for (const executable of PLAYWRIGHT_EXECUTABLES[lookup.platform] ?? []) candidates.push(path.join(browsersDir, name, executable));
    }
  }
  candidates.push(...(SYSTEM_PATHS[lookup.platform] ?? []));
  return candidates;
}

/**
 * The browser to run, or a ChromiumNotFoundError saying how to get one. Without arguments it
 * looks at this machine; the tests pass a lookup of their own.
 */
export function findChromium(lookup: ChromiumLookup = machineLookup()): string {
  const configured = lookup.env.CHROMIUM_PATH;
  if (configured) {
    if (lookup.isExecutable(configured)) return configured;
    throw new ChromiumNotFoundError(
      [
        `CHROMIUM_PATH is set to ${configured}, which is not an executable file.`,
        "Point it at a Chromium or Chrome executable, or unset it and get one of these:",
        ...INSTALL,
      ].join("\n"),
    );
  }
  const candidates = chromiumCandidates(lookup);
  const found = candidates.find((candidate) => lookup.isExecutable(candidate));
  if (found) return found;
  const browsersDir = playwrightBrowsersDir(lookup);
  const places = [...(browsersDir ? [path.join(browsersDir, "chromium-*")] : []), ...(SYSTEM_PATHS[lookup.platform] ?? [])];
  throw new ChromiumNotFoundError(
    `No Chromium or Chrome found for the browser tests (looked in ${places.length > 0 ? places.join(", ") : `nothing known on ${lookup.platform}`}).\n${HELP}`,
  );
}

/** This machine, as findChromium reads it. */
export function machineLookup(): ChromiumLookup {
  let playwrightDir: string | undefined;
  try {
    playwrightDir = path.dirname(createRequire(import.meta.url).resolve("playwright-core/package.json"));
  } catch {
    playwrightDir = undefined;
  }
  return {
    env: process.env,
    home: os.homedir(),
    platform: process.platform,
    cwd: process.cwd(),
    playwrightDir,
    isExecutable(file) {
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    },
    readdir(dir) {
      try {
        return readdirSync(dir);
      } catch {
        return [];
      }
    },
  };
}

let found: string | undefined;

/** This machine's browser (looked up once per process); throws ChromiumNotFoundError. */
export function chromiumPath(): string {
  found ??= findChromium();
  return found;
}

/** For scripts: this machine's browser, or the help on stderr and exit code 1. */
export function chromiumPathOrExit(): string {
  try {
    return chromiumPath();
  } catch (error) {
    if (!(error instanceof ChromiumNotFoundError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

// `node test/support/chromium.ts`: which browser would be used (exit code 1, with the help, if none).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(chromiumPathOrExit());
}
