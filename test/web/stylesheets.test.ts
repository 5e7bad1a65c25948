/// <reference types="node" />
// @vitest-environment node
/**
 * The site and the operator console share one base stylesheet (web/src/base.css: the palette,
 * buttons, skip link, visually hidden text): each imports it first and repeats none of it, so a
 * colour or a button changes in one place for both.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The files as written: an import of a stylesheet gives nothing here (Vitest leaves CSS out).
const read = (file: string) => readFileSync(new URL(`../../web/src/${file}`, import.meta.url), "utf8");
const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, "");

/** The custom properties a stylesheet defines (`--name:`). */
const properties = (css: string) => [...withoutComments(css).matchAll(/(--[a-z-]+)\s*:/g)].map((match) => match[1]);

/** The declarations of a stylesheet's top-level rules, as "selector { property }". */
const declarations = (css: string) =>
  [...withoutComments(css).matchAll(/(?<=^|\})\s*([^{}@]+?)\s*\{([^{}]*)\}/g)].flatMap(([, selector, body]) =>
    [...body!.matchAll(/(?:^|;)\s*([a-z-]+)\s*:/g)].map(([, property]) => `${selector!.replace(/\s+/g, " ")} { ${property} }`),
  );

const base = read("base.css");
const stylesheets = [
  { name: "the site's styles.css", css: read("styles.css"), importLine: '@import "./base.css";' },
  { name: "the console's admin.css", css: read("admin/admin.css"), importLine: '@import "../base.css";' },
];

describe("the base stylesheet", () => {
  it("holds the palette, the skip link, visually hidden text, the buttons and text fields", () => {
    expect(properties(base)).toEqual(expect.arrayContaining(["--bg", "--text", "--accent", "--primary", "--focus", "--error-text"]));
    expect(declarations(base)).toEqual(
      expect.arrayContaining([
        ".visually-hidden { clip }",
        ".skip-link { transform }",
        ".button { padding }",
        ".button--primary { background }",
        ":focus-visible { outline }",
        ".input { border }",
      ]),
    );
  });

  it.each(stylesheets)("is imported first by $name, which sets none of its colours or declarations again", ({ css, importLine }) => {
    expect(withoutComments(css).trim().startsWith(importLine)).toBe(true);
    const own = new Set(properties(css));
    expect(properties(base).filter((name) => own.has(name))).toEqual([]);
    // A rule may add to one of base.css's (the site's body clips sideways overflow), not set again what it sets.
    const ownDeclarations = new Set(declarations(css));
    expect(declarations(base).filter((declaration) => ownDeclarations.has(declaration))).toEqual([]);
  });
});
