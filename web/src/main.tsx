import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./App";

/**
 * Starts the app (loaded by boot.ts). index.html carries the prerendered home page
 * (web/build.ts); hydrating it is only right when the home page is what this address shows, and
 * any other route renders from scratch.
 */
const container = document.getElementById("root")!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
const route = location.hash.replace(/^#/, "") || "/";

if (container.dataset.prerendered === route && container.hasChildNodes()) {
  hydrateRoot(container, app);
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}
