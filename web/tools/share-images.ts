/**
 * Draws the site's share images from the brand and writes them into web/public, where the build
 * copies them to the site's root:
 *
 * - og-image.png (1200 x 630): the preview that chat apps and social sites show for a shared
 *   link (index.html's og:image and twitter:image).
 * - apple-touch-icon.png (180 x 180): the icon of the site saved to a phone's home screen.
 *
 * Both are screenshots, by the Chromium the browser tests use (test/support/chromium.ts), of a
 * small HTML card made of the brand: its name and tagline (web/src/content.ts), its colours (the
 * custom properties of web/src/base.css and styles.css) and its mark (web/public/favicon.svg). The PNGs are
 * committed; after changing any of those, run it again and commit the new files:
 *
 *     node web/tools/share-images.ts
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { runnerImport } from "vite";
import { CHROMIUM_FLAGS, chromiumPathOrExit } from "../../test/support/chromium.ts";
import siteConfig from "../vite.config.ts";

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PUBLIC = path.join(WEB, "public");

type Brand = { name: string; tagline: string };

/** The brand's words, from content.ts (loaded through Vite with the site's alias: it imports the worker's modules as @shared). */
async function loadBrand(): Promise<Brand> {
  const { module } = await runnerImport<{ brand: Brand }>(path.join(WEB, "src/content.ts"), {
    configFile: false,
    resolve: siteConfig.resolve,
    logLevel: "warn",
  });
  return module.brand;
}

/** The values of the stylesheet's :root custom properties the images use. */
function loadColours(): Record<"bg" | "bgAlt" | "text" | "textSoft" | "accent" | "border", string> {
  // The palette is base.css's, the site's own colours (--bg-alt) are styles.css's.
  const css = ["src/base.css", "src/styles.css"].map((file) => readFileSync(path.join(WEB, file), "utf8")).join("\n");
  const value = (name: string) => {
    const match = new RegExp(`--${name}:\\s*([^;]+);`).exec(css);
    if (!match) throw new Error(`base.css and styles.css define no --${name}.`);
    return match[1]!.trim();
  };
  return {
    bg: value("bg"),
    bgAlt: value("bg-alt"),
    text: value("text"),
    textSoft: value("text-soft"),
    accent: value("accent"),
    border: value("border"),
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function shareCardHtml(brand: Brand, mark: string, colours: ReturnType<typeof loadColours>): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    html, body { margin: 0; width: 1200px; height: 630px; overflow: hidden; }
    body {
      box-sizing: border-box;
      display: flex; flex-direction: column; justify-content: center; gap: 40px;
      padding: 0 96px;
      font-family: system-ui, sans-serif;
      color: ${colours.text};
      background:
        radial-gradient(ellipse at 12% 0%, rgb(109 93 252 / 0.42), transparent 60%),
        radial-gradient(ellipse at 95% 100%, rgb(56 189 248 / 0.16), transparent 55%),
        ${colours.bg};
      border-bottom: 12px solid ${colours.accent};
    }
    .brand { display: flex; align-items: center; gap: 36px; }
    .brand svg { width: 132px; height: 132px; flex: none; }
    .name { font-size: 80px; font-weight: 800; letter-spacing: -0.02em; line-height: 1; white-space: nowrap; }
    .tagline { margin: 0; max-width: 980px; font-size: 46px; line-height: 1.3; color: ${colours.textSoft}; }
  </style></head><body>
    <div class="brand">${mark}<div class="name">${escapeHtml(brand.name)}</div></div>
    <p class="tagline">${escapeHtml(brand.tagline)}</p>
  </body></html>`;
}

/** The mark alone, filling the square: the home screen rounds the corners itself. */
function touchIconHtml(mark: string): string {
  const square = mark.replace(/\srx="[^"]*"/, "");
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    html, body { margin: 0; width: 180px; height: 180px; overflow: hidden; }
    svg { display: block; width: 180px; height: 180px; }
  </style></head><body>${square}</body></html>`;
}

async function screenshot(browser: Browser, html: string, size: { width: number; height: number }, file: string): Promise<void> {
  const page = await browser.newPage({ viewport: size, deviceScaleFactor: 1 });
  try {
    await page.setContent(html);
    await page.screenshot({ path: file, type: "png" });
  } finally {
    await page.close();
  }
  console.log(`Wrote ${path.relative(process.cwd(), file)} (${size.width} x ${size.height}).`);
}

const chromiumPath = chromiumPathOrExit();
const brand = await loadBrand();
const mark = readFileSync(path.join(PUBLIC, "favicon.svg"), "utf8").trim();
if (!mark.startsWith("<svg")) throw new Error("public/favicon.svg should be one <svg> element.");
const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS });
try {
  await screenshot(browser, shareCardHtml(brand, mark, loadColours()), { width: 1200, height: 630 }, path.join(PUBLIC, "og-image.png"));
  await screenshot(browser, touchIconHtml(mark), { width: 180, height: 180 }, path.join(PUBLIC, "apple-touch-icon.png"));
} finally {
  await browser.close();
}
