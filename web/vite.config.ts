import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Builds the site into web/dist, which the worker serves as static assets (wrangler.toml [assets]).
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react()],
  resolve: { alias: { "@shared": fileURLToPath(new URL("../worker/shared", import.meta.url)) } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rollupOptions: {
      output: {
        // The lazily loaded sign-in library gets a name that says what it is (tests and the
        // benchmark look for it); everything else keeps Vite's default naming.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes("/@supabase/auth-js/")) ? "assets/auth-js-[hash].js" : "assets/[name]-[hash].js",
      },
    },
  },
});
