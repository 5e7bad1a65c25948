import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The documentation is read on GitHub, one file linking to the next: README.md at the top, the
 * rest in docs/. A link to a file that was moved, or to a heading that was renamed, fails
 * silently there, so this checks every Markdown file at the top level and in docs/: each
 * relative link names a file that exists and, into a Markdown file, a heading it has (GitHub's
 * anchors); each `npm run X` names a script of package.json; each repository path written as
 * code exists.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCRIPTS: Record<string, string> = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts;

/** The folders at the top of the repository whose paths the docs name as code (`worker/config.ts`). */
const PATH_ROOTS = ["worker/", "web/", "test/", "scripts/", "migrations/", "docs/", ".ci/"];
/** Build output, there only after `npm run build`. */
const BUILT = ["web/dist"];

const markdownFiles = (): string[] => [
  ...readdirSync(ROOT).filter((name) => name.endsWith(".md")),
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

const FENCE = /^\s*(`{3,}|~{3,})/;

/** The lines outside fenced code blocks (with their line numbers), and the blocks' lines. */
function splitFences(text: string): { prose: { line: number; text: string }[]; code: string[] } {
  const prose: { line: number; text: string }[] = [];
  const code: string[] = [];
  let fence: string | null = null;
  text.split("\n").forEach((line, index) => {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker?.startsWith(fence)) fence = null;
      else code.push(line);
    } else if (marker) {
      fence = marker;
    } else {
      prose.push({ line: index + 1, text: line });
    }
  });
  return { prose, code };
}

/** Inline code spans: a run of backticks to the next run as long, within one paragraph. */
const CODE_SPAN = /(`+)((?:(?!\n[ \t]*\n)[\s\S])*?[^`])\1(?!`)/g;

/**
 * The anchor GitHub gives a heading (github-slugger): its text as shown (code and link syntax
 * gone), lower-cased, every character but letters, digits, marks, `_`, `-` and spaces dropped,
 * spaces turned into `-`.
 */
function slugOf(heading: string): string {
  const shown = heading
    .replace(/`/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*/g, "");
  return shown
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor of a Markdown text: its headings' slugs, a repeated one suffixed -1, -2, ... */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const { text } of splitFences(markdown).prose) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = slugOf(heading);
    let slug = base;
    for (let n = 1; anchors.has(slug); n++) slug = `${base}-${n}`;
    anchors.add(slug);
  }
  return anchors;
}

type Link = { line: number; target: string };

/** The links of a Markdown text outside code: inline `[text](target)`, `<a href>` and definitions. */
function linksOf(markdown: string): Link[] {
  const { prose } = splitFences(markdown);
  // Code spans are blanked (their newlines kept), so a line number still points at the source.
  const text = prose
    .map((entry) => entry.text)
    .join("\n")
    .replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, " "));
  const lineOf = (offset: number) => prose[text.slice(0, offset).split("\n").length - 1]?.line ?? 0;
  const links: Link[] = [];
  const patterns = [
    /\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g,
    /<a\s[^>]*href="([^"]+)"/g,
    /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) links.push({ line: lineOf(match.index), target: (match[1] ?? match[2])! });
  }
  return links;
}

/** What is wrong with a link from `file` (relative to the repository), or null when it works. */
function problemOf(file: string, target: string, anchorsOfFile: (file: string) => Set<string>): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: are not this test's
  const hash = target.indexOf("#");
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const resolved =
    pathPart === ""
      ? file
      : path.posix.normalize(pathPart.startsWith("/") ? pathPart.slice(1) : path.posix.join(path.posix.dirname(file), pathPart));
  if (resolved.startsWith("../")) return `${target}: outside the repository`;
  if (!existsSync(path.join(ROOT, resolved))) return `${target}: no file ${resolved}`;
  if (anchor === null || !resolved.endsWith(".md")) return null;
  if (!anchorsOfFile(resolved).has(anchor)) return `${target}: ${resolved} has no heading with the anchor #${anchor}`;
  return null;
}

/** The scripts a text runs by name (`npm run X`, `npm start`, `npm test`); `bench:*` is a pattern. */
function scriptsNamedIn(markdown: string): string[] {
  const named = [...markdown.matchAll(/\bnpm run ([\w:*-]+)/g)].map((match) => match[1]!.replace(/:+$/, ""));
  const shortcuts = [...markdown.matchAll(/\bnpm (start|test)\b/g)].map((match) => match[1]!);
  return [...new Set([...named, ...shortcuts])];
}

const isScript = (name: string): boolean => {
  if (!name.includes("*")) return name in SCRIPTS;
  const pattern = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  return Object.keys(SCRIPTS).some((script) => pattern.test(script));
};

/** The repository paths a text names as code outside code blocks: `worker/config.ts`, `node web/tools/share-images.ts`. */
function pathsNamedIn(markdown: string): string[] {
  const prose = splitFences(markdown)
    .prose.map((entry) => entry.text)
    .join("\n");
  const spans = [...prose.matchAll(CODE_SPAN)].map((match) => match[2]!);
  const tokens = spans.flatMap((span) => span.split(/[\s,;()'"=]+/));
  const paths = tokens
    .filter((token) => PATH_ROOTS.some((root) => token.startsWith(root)))
    .map((token) => token.replace(/[.:]+$/, "").replace(/#.*$/, ""))
    .filter((token) => !BUILT.some((built) => token === built || token.startsWith(`${built}/`)));
  return [...new Set(paths)];
}

/** Whether a path exists; a `*` in its last part matches any characters of one name. */
function pathExists(name: string): boolean {
  if (!name.includes("*")) return existsSync(path.join(ROOT, name));
  const dir = path.posix.dirname(name);
  const pattern = new RegExp(
    `^${path.posix
      .basename(name)
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")}$`,
  );
  const full = path.join(ROOT, dir);
  return existsSync(full) && statSync(full).isDirectory() && readdirSync(full).some((entry) => pattern.test(entry));
}

const FILES = markdownFiles();
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const anchorCache = new Map<string, Set<string>>();
const anchorsOfFile = (file: string): Set<string> => {
  const anchors = anchorCache.get(file) ?? anchorsOf(read(file));
  anchorCache.set(file, anchors);
  return anchors;
};

describe("the anchors and links this test reads", () => {
  it("makes anchors as GitHub does", () => {
    expect(slugOf("Sign-in (`/auth/v1`, GoTrue-compatible)")).toBe("sign-in-authv1-gotrue-compatible");
    expect(slugOf("On paper: how long, and the platform's limits")).toBe("on-paper-how-long-and-the-platforms-limits");
    expect(slugOf("Dev loop: `npm run bench:dev`")).toBe("dev-loop-npm-run-benchdev");
    expect(slugOf("2026-11-23, issue 11 (`npm run dev` with `@cloudflare/vite-plugin` 1.64.0, Vite 8.3.8)")).toBe(
      "2026-11-23-issue-11-npm-run-dev-with-cloudflarevite-plugin-1640-vite-838",
    );
    expect(slugOf("The `NOTIFY_HOURLY_CAP` and **über**")).toBe("the-notify_hourly_cap-and-über");
    expect([...anchorsOf("# A\n\n## Same\n\n```\n# not a heading\n```\n\n### Same\n\n## Same\n")]).toEqual([
      "a",
      "same",
      "same-1",
      "same-2",
    ]);
  });

  it("finds links outside code only, on their lines", () => {
    const text = "See [x](a.md#b).\n\n```\n[y](fenced.md)\n```\n\nAnd `[z](span.md)` [w](<c d.md>)\n[ref]: e.md\n";
    expect(linksOf(text)).toEqual([
      { line: 1, target: "a.md#b" },
      { line: 7, target: "c d.md" },
      { line: 8, target: "e.md" },
    ]);
  });

  it("finds the scripts and the paths named", () => {
    expect(scriptsNamedIn("Run `npm run dev`, then npm run bench:* and npm test; `npm run lint`:")).toEqual([
      "dev",
      "bench:*",
      "lint",
      "test",
    ]);
    expect(pathsNamedIn("`node web/tools/share-images.ts` reads `worker/config.ts`, not `web/dist/_headers`")).toEqual([
      "web/tools/share-images.ts",
      "worker/config.ts",
    ]);
  });
});

describe.each(FILES)("%s", (file) => {
  const text = read(file);

  it("links only to files that exist, and to headings they have", () => {
    const broken = linksOf(text)
      .map(({ line, target }) => ({ line, problem: problemOf(file, target, anchorsOfFile) }))
      .filter((link) => link.problem !== null)
      .map(({ line, problem }) => `${file}:${line}: ${problem}`);
    expect(broken).toEqual([]);
  });

  it("runs only scripts package.json has", () => {
    expect(scriptsNamedIn(text).filter((name) => !isScript(name))).toEqual([]);
  });

  it("names only paths that exist", () => {
    expect(pathsNamedIn(text).filter((name) => !pathExists(name))).toEqual([]);
  });
});

it("reads the README and every file in docs/", () => {
  expect(FILES).toContain("README.md");
  expect(FILES.filter((file) => file.startsWith("docs/")).length).toBeGreaterThanOrEqual(7);
});
