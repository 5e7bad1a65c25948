// @vitest-environment node
/**
 * The home page rendered the way the build prerenders it (web/src/entry-server.tsx): in Node,
 * with no window or document, which proves no component touches them while rendering. Its
 * markup must also suit the Content-Security-Policy (no inline style attributes or scripts).
 */
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { App } from "../../web/src/App";

const render = () =>
  renderToString(
    <StrictMode>
      <App ssrPath="/" />
    </StrictMode>,
  );

describe("prerendered home page", () => {
  it("renders without a browser", () => {
    expect(typeof window).toBe("undefined");
    const html = render();

    expect(html).toContain("Your Homework, <span");
    for (const id of ["hero", "features", "how-it-works", "advanced-ai", "subjects", "contact", "early-access"]) {
      expect(html).toContain(`id="${id}"`);
    }
    // Nobody is signed in as far as the server knows; the demo is on its first frame.
    expect(html).toContain('href="#/login"');
    expect(html).toContain('value="0"');
  });

  it("cannot be submitted before the script takes over, and would never put the data in the address", () => {
    const html = render();
    const forms = html.match(/<form[^>]*>/g) ?? [];
    expect(forms).toHaveLength(3);
    expect(forms.every((form) => form.includes('method="post"'))).toBe(true);
    const submits = html.match(/<button type="submit"[^>]*>/g) ?? [];
    expect(submits).toHaveLength(3);
    expect(submits.every((button) => button.includes('disabled=""'))).toBe(true);
  });

  it("is the same every time (nothing depends on the clock or chance)", () => {
    expect(render()).toBe(render());
  });

  it("has no inline styles or scripts for the Content-Security-Policy to block", () => {
    const html = render();
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toMatch(/<script|<style/);
    expect(html).not.toMatch(/\son[a-z]+=/);
  });
});
