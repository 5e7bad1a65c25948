import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { App } from "./App";

/**
 * The home page as HTML, rendered at build time (web/build.ts) into index.html so its content
 * shows before any script runs; main.tsx then hydrates it. Wrapped exactly like the client's
 * tree, so hydration finds the same markup.
 */
export function renderHomePage(): string {
  return renderToString(
    <StrictMode>
      <App ssrPath="/" />
    </StrictMode>,
  );
}
