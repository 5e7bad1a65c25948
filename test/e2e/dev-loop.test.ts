/**
 * The two ways to run the site locally, as a developer types them:
 *
 * - `npm run dev` (the Vite dev server with the worker in workerd) on a free port (PORT) serves
 *   the home page, as Vite transforms it for the dev server (hot updates, React fast refresh),
 *   through the worker's page route, and the API. Its cold start takes 15-40 s on a busy
 *   2-core machine (Vite's dependency scan, `npm run dev:prepare`'s migration check).
 * - A busy port makes `npm start` stop at once, before any build work, with one line naming the
 *   port and how to pick another.
 *
 * They use the repository's own .dev.vars and local database, like the commands themselves (both
 * are created or migrated by `npm run dev:prepare` when needed). Node only, 127.0.0.1 only;
 * whatever a test starts is stopped (its whole process group) when it ends.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { CHILD_ENV, HOST, ROOT, freePort } from "../support/dev-server.ts";
import { startNpmDev } from "../support/npm-dev.ts";

const DEV_START_TIMEOUT_MS = 180_000;

/** Runs a command to its end and gives back its exit code, output (both streams) and duration. */
function runToEnd(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; output: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: ROOT, env: { ...CHILD_ENV, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
      reject(new Error(`${command} ${args.join(" ")} still ran after ${timeoutMs / 1000} s. Its output:\n${output}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

/** Listens on a free port of 127.0.0.1 until closed: a port someone else is using. */
async function occupyPort(): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, resolve);
  });
  return { port, server };
}

describe("npm run dev", () => {
  it(
    "serves the home page through the worker, with Vite's hot-update client, and the API",
    async () => {
      const dev = await startNpmDev({ startupTimeoutMs: DEV_START_TIMEOUT_MS });
      try {
        const health = await fetch(`${dev.baseUrl}/api/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({ status: "ok", environment: "development" });

        const home = await fetch(`${dev.baseUrl}/`);
        expect(home.status).toBe(200);
        const html = await home.text();
        // Vite's dev page: its HMR client and the app's source module, not the built bundle.
        expect(html).toContain('src="/@vite/client"');
        expect(html).toContain('src="/src/main.tsx"');
        // Passed through the worker's page route: share-preview addresses made absolute.
        expect(html).toContain(`<link rel="canonical" href="${dev.baseUrl}/"`);
        // The worker's policy, with what the dev server's inline preamble and styles need.
        expect(home.headers.get("content-security-policy")).toMatch(/script-src 'self' 'unsafe-inline'/);

        const entry = await fetch(`${dev.baseUrl}/src/main.tsx`);
        expect(entry.status).toBe(200);
        const consolePage = await fetch(`${dev.baseUrl}/admin/`);
        expect(consolePage.status).toBe(200);
        expect(await consolePage.text()).toContain('src="/src/admin/main.tsx"');
      } finally {
        await dev.stop();
      }
    },
    DEV_START_TIMEOUT_MS + 30_000,
  );
});

describe("a busy port", () => {
  it("stops npm start at once, before any build, with one line naming the port and how to pick another", async () => {
    const { port, server } = await occupyPort();
    try {
      const result = await runToEnd("npm", ["start"], { PORT: String(port) }, 30_000);
      expect(result.code).not.toBe(0);
      const lines = result.output.split("\n").filter((line) => line.includes(`Port ${port}`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^Port ${port} on 127\\.0\\.0\\.1 is already in use; pick another with PORT, e\\.g\\. PORT=\\d+ npm start\\.$`),
      );
      // Nothing was built: npm never got to the build script.
      expect(result.output).not.toContain("> build");
      expect(result.ms).toBeLessThan(10_000);
    } finally {
      server.close();
    }
  });

  it("stops npm run dev the same way", async () => {
    const { port, server } = await occupyPort();
    try {
      const result = await runToEnd("npm", ["run", "dev"], { PORT: String(port) }, 30_000);
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(
        new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use; pick another with PORT, e\\.g\\. PORT=\\d+ npm run dev\\.`),
      );
      expect(result.output).not.toContain("> dev:prepare");
    } finally {
      server.close();
    }
  });
});
