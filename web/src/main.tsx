import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { preloadRoute } from "./pages/route-chunks";
import { routeOfHash } from "./routes";
import { Site } from "./Site";
import "./styles.css";

/**
 * Starts the app. In the built site this file is not a script tag of its own: index.html's small
 * inline start script (web/build.ts) imports it after the first paint, having put the prerendered
 * HTML of the address's route into #root and named that route in data-prerendered. Hydrating it
 * is only right when that route is still what the address shows (the visitor may have followed
 * a link meanwhile); otherwise, or for an address with no prerendered route, the app renders
 * from scratch.
 *
 * Once the app runs, #root is marked data-started: the page looks the same before and after, so
 * this is how a browser test (or a benchmark) knows the page now responds as the app. A form
 * submitted before that (held by the start script) is submitted again then.
 */
const container = document.getElementById("root")!;
// The route as the router reads the address (a home page anchor such as "#contact" is "/"), the
// same rule as the start script's.
const route = routeOfHash(location.hash);
const markStarted = () => {
  container.dataset.started = "";
  // A form the visitor sent before the app ran (the start script held it): send it now.
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-pending-submit]")) {
    delete form.dataset.pendingSubmit;
    form.requestSubmit();
  }
};

function renderFromScratch() {
  container.replaceChildren();
  delete container.dataset.prerendered;
  createRoot(container).render(<Site onStarted={markStarted} />);
}

function hydrate() {
  // As a transition, hydration is time-sliced: the page is brought to life in short slices
  // between the visitor's input and the browser's frames, not one long task.
  startTransition(() => {
    hydrateRoot(container, <Site ssrPath={route} onStarted={markStarted} />);
  });
}

if (container.dataset.prerendered === route && container.hasChildNodes()) {
  // A page that is a chunk of its own (a legal page) is loaded first, so it renders exactly as
  // prerendered; the home page has none and hydrates at once. Should the chunk not load, the app
  // renders from scratch (the page then says it could not be loaded).
  const chunk = preloadRoute(route);
  if (chunk) chunk.then(hydrate, renderFromScratch);
  else hydrate();
} else {
  renderFromScratch();
}
