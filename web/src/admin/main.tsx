import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AdminApp } from "./AdminApp";
import "./admin.css";

/**
 * The operator console's entry (web/admin/index.html, built on its own by web/build.ts): nothing
 * of the site's bundle is loaded here, and nothing of this one there.
 */
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AdminApp />
  </StrictMode>,
);
