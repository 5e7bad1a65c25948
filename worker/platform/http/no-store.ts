import type { MiddlewareHandler } from "hono";

/**
 * Answers no browser or cache may keep: each is about one person or one request (the API, the
 * confirmation and unsubscribe pages). Set after the handler, so errors' answers carry it too.
 */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
};
