import type { Context, Env, ErrorHandler, Handler } from "hono";
import type { HTTPException } from "hono/http-exception";
import { describeError, log } from "../log";
import { allowedMethods, pathInApp } from "./methods";

/**
 * What each part of the worker mounted as a sub-app does alike, each in its own error format
 * (the API's {"error":{...}}, sign-in's GoTrue shape): its error handler and its catch-all.
 */

/** An error that is its own answer: a status and a code (the API's ApiError, sign-in's AuthError). */
type AnswerError = HTTPException & { code: string };

/** How a sub-app answers errors: its own kind of error, how one becomes the answer, its 500, and its log events. */
export type ErrorFormat<T extends AnswerError, E extends Env> = {
  kind: abstract new (...args: never[]) => T;
  respond: (c: Context<E>, error: T) => Response | Promise<Response>;
  /** The answer to an error that is not of its kind. */
  internal: () => T;
  events: { failed: string; unhandled: string };
};

/**
 * The sub-app's error handler: an error of its own kind is the answer, logged with its cause
 * when it is the server's fault (5xx); any other error is logged as unhandled and answered with
 * the sub-app's own 500, saying nothing of what happened.
 */
export function answerErrors<T extends AnswerError, E extends Env>(format: ErrorFormat<T, E>): ErrorHandler<E> {
  return (error, c) => {
    const request = { method: c.req.method, route: c.req.routePath };
    if (error instanceof format.kind) {
      if (error.status >= 500)
        log("error", format.events.failed, { ...request, code: error.code, error: describeError(error.cause ?? error) });
      return format.respond(c, error);
    }
    log("error", format.events.unhandled, { ...request, error: describeError(error) });
    return format.respond(c, format.internal());
  };
}

/** A sub-app's answers when no route matches: another method for a path it has (405), or no such path (404). */
export type NoRouteErrors = {
  /** `allowed`: the methods the path has routes for (the Allow header's value, joined by ", "). */
  methodNotAllowed: (c: Context, allowed: readonly string[]) => Error;
  notFound: (c: Context) => Error;
};

/**
 * The catch-all of a sub-app: a path it has routes for, asked with another method, is a 405
 * whose Allow lists the methods of those routes (read from Hono's route table, methods.ts, so it
 * cannot disagree with the routes); any other path a 404.
 */
export function noRoute(app: () => Parameters<typeof allowedMethods>[0], errors: NoRouteErrors): Handler {
  return (c) => {
    const allowed = allowedMethods(app(), pathInApp(c));
    throw allowed.length > 0 ? errors.methodNotAllowed(c, allowed) : errors.notFound(c);
  };
}
