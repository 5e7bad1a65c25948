import { Hono } from "hono";
import type { OperatorEnv } from "../operator";

/** CONTRACT PLACEHOLDER (replaced by the operator API): /api/admin/webhooks. */
export const webhookRoutes = new Hono<OperatorEnv>();
