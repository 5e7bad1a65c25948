/**
 * The page's only script tag. The home page arrives prerendered (web/build.ts) with its styles
 * inlined, so it is complete before any script runs; this tiny entry lets the browser paint it
 * first and only then downloads and starts the app (main.tsx), which hydrates it. Other routes
 * have nothing prerendered to show, so the app starts at once.
 */
import "./styles.css";

const container = document.getElementById("root");
/** The route the address names (hash routing): "" and "#/" are both the home page. */
const route = location.hash.replace(/^#/, "") || "/";
const showsPrerenderedPage = container?.dataset.prerendered === route;

function start(): void {
  import("./main").catch((error: unknown) => {
    // A deploy replaced the files or the network dropped: the prerendered page stays readable.
    console.error("Could not start the site's script.", error);
  });
}

if (!showsPrerenderedPage) {
  // Not the home page: never flash the prerendered home while the app loads.
  container?.replaceChildren();
  start();
} else if (document.visibilityState === "visible") {
  // The callback runs just before the first paint; the timeout, right after it.
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  // A background tab paints nothing and gets no animation frames: start now.
  start();
}
