/**
 * Debian's Chromium, as the browser tests and the web benchmark run it: headless, and with
 * everything that would reach the network on its own switched off (this machine has none).
 */
export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
