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

/** The selectors of a stylesheet's top-level rules, as written. */
const selectors = (css: string) =>
  [...withoutComments(css).matchAll(/(?:^|\})\s*([^{}@]+?)\s*\{/g)].map((match) => match[1]!.replace(/\s+/g, " "));

const base = read("base.css");
const stylesheets = [
  { name: "the site's styles.css", css: read("styles.css"), importLine: '@import "./base.css";' },
  { name: "the console's admin.css", css: read("admin/admin.css"), importLine: '@import "../base.css";' },
];

describe("the base stylesheet", () => {
  it("holds the palette, the skip link, visually hidden text and the buttons", () => {
    expect(properties(base)).toEqual(expect.arrayContaining(["--bg", "--text", "--accent", "--primary", "--focus", "--error-text"]));
    expect(selectors(base)).toEqual(
      expect.arrayContaining([".visually-hidden", ".skip-link", ".button", ".button--primary", ":focus-visible"]),
    );
  });

  it.each(stylesheets)("is imported first by $name, which repeats none of its colours or rules", ({ css, importLine }) => {
    expect(withoutComments(css).trim().startsWith(importLine)).toBe(true);
    const own = new Set(properties(css));
    expect(properties(base).filter((name) => own.has(name))).toEqual([]);
    const ownSelectors = new Set(selectors(css));
    // body is the exception: each adds a rule of its own to it (the site clips sideways overflow).
    expect(selectors(base).filter((selector) => selector !== "body" && ownSelectors.has(selector))).toEqual([]);
  });
});
