import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes a new numbered SQL migration into migrations/ from the schema.
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/platform/db/schema.ts",
  out: "./migrations",
});
