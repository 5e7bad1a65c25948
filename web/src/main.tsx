import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./App";
import "./styles.css";

/**
 * Starts the app. In the built site this file is not a script tag of its own: index.html's small
 * inline start script (web/build.ts) imports it after the first paint. The home page arrives
 * prerendered: hydrating it is only right when the home page is what this address shows, and any
 * other route renders from scratch.
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
