/**
 * `npm run check:deploy`: everything `npm run deploy` does before talking to Cloudflare, with no
 * account and no network. Builds the site, bundles the worker with `wrangler deploy --dry-run`
 * (which checks wrangler.toml, the bindings and the bundle), and prints the sizes Cloudflare
 * limits: the worker bundle (raw and gzip; the limit is 3 MB gzip on the Free plan, 10 MB on
 * Paid) and the static assets (at most 20,000 files of at most 25 MiB each).
 * Runs on Node 22 (type stripping), from the repository root.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };
const FREE_PLAN_GZIP_BYTES = 3 * 1024 * 1024;

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { env, encoding: "utf8" });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) {
    console.error(output);
    throw new Error(`${command} ${args.join(" ")} failed (exit code ${result.status}).`);
  }
  return output;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * The launch line the home page states (CLAIM_LAUNCH; README "Pages from the edge") defaults to the
 * spec's "Q3 2025", which is past: a deploy that leaves it so is warned (not failed: it is words,
 * and a team may set it with `wrangler secret put` or in the dashboard instead of wrangler.toml).
 */
function warnOfPastLaunch(): void {
  const toml = readFileSync("wrangler.toml", "utf8");
  const set = /^\s*CLAIM_LAUNCH\s*=\s*"([^"]*)"/m.exec(toml)?.[1];
  if (set === undefined || set.trim() === "" || set.trim() === "Q3 2025") {
    console.warn(
      '  Warning: CLAIM_LAUNCH is not set in wrangler.toml [vars]: the home page says "Launching Q3 2025", which is past. Set it unless the dashboard does.',
    );
  }
}

console.log("Building the site (npm run build)...");
run("npm", ["run", "--silent", "build"]);

const outDir = mkdtempSync(path.join(os.tmpdir(), "check-deploy-"));
try {
  console.log("Bundling the worker (wrangler deploy --dry-run)...");
  run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outDir]);
  const bundle = readFileSync(path.join(outDir, "index.js"));
  const gzipped = gzipSync(bundle, { level: 9 }).length;

  const assets = filesUnder("web/dist").filter((file) => !path.basename(file).startsWith("_"));
  const assetBytes = assets.reduce((sum, file) => sum + statSync(file).size, 0);
  const largest = Math.max(...assets.map((file) => statSync(file).size));

  console.log("\nDeploy check passed: wrangler.toml, bindings and the bundle are valid.");
  console.log(`  worker bundle   ${kib(bundle.length)} raw, ${kib(gzipped)} gzip (Free plan limit ${kib(FREE_PLAN_GZIP_BYTES)} gzip)`);
  console.log(`  static assets   ${assets.length} files, ${kib(assetBytes)} in all, the largest ${kib(largest)}`);
  warnOfPastLaunch();
  if (gzipped > FREE_PLAN_GZIP_BYTES) {
    console.error("  The worker bundle is over the Free plan's limit: it needs the Paid plan.");
    process.exitCode = 1;
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
