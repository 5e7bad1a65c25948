/**
 * Cloudflare Turnstile for one form: loads Turnstile's script (once per page), renders an
 * explicit widget into the form's container and keeps its latest token. Imported on demand by
 * ./use-turnstile.ts when a visitor starts using a form of a page that has a site key, so a
 * visitor who only reads never downloads this file, nor Turnstile's script.
 *
 * The widget runs with appearance "interaction-only": most visitors pass without seeing it;
 * it only shows itself when Cloudflare wants the visitor to do something.
 */
import { TURNSTILE_SCRIPT_URL } from "./names";

/** The part of window.turnstile this module uses (Cloudflare's client-side rendering API). */
export type TurnstileApi = {
  render: (container: HTMLElement, options: TurnstileRenderOptions) => string | null | undefined;
  reset: (widgetId: string) => void;
  remove: (widgetId: string) => void;
};

export type TurnstileRenderOptions = {
  sitekey: string;
  callback: (token: string) => void;
  "expired-callback": () => void;
  /** Returning true tells Turnstile the error is handled (it then neither throws nor logs). */
  "error-callback": (code: string) => boolean;
  appearance: "always" | "execute" | "interaction-only";
  /** The token goes into the form's JSON body, so Turnstile need not add a hidden input. */
  "response-field": boolean;
};

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

export type TurnstileWidget = {
  /**
   * The token to send: the latest one at once, or the next one Turnstile gives. Resolves
   * undefined if the widget cannot work (its script did not load) or is removed. It may wait
   * long (a challenge the visitor has to solve): the caller bounds the wait.
   */
  token: () => Promise<string | undefined>;
  /** A token is good for one submission: forget it and have Turnstile issue a new one. */
  reset: () => void;
  /** Takes the widget out of the page (the form is gone). */
  remove: () => void;
};

/** The script being loaded, so forms started meanwhile share it. */
let scriptLoad: Promise<TurnstileApi> | undefined;

/**
 * Turnstile's API, adding its script to the page when it is not there yet. A script that fails
 * to load is taken out again and not remembered, so the next attempt loads it anew.
 */
export function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  if (!scriptLoad) {
    const loading = new Promise<TurnstileApi>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = TURNSTILE_SCRIPT_URL;
      script.async = true;
      script.addEventListener("load", () => {
        if (window.turnstile) resolve(window.turnstile);
        else reject(new Error("Turnstile's script loaded but defined no window.turnstile."));
      });
      script.addEventListener("error", () => {
        script.remove();
        reject(new Error(`Turnstile's script could not be loaded from ${TURNSTILE_SCRIPT_URL}.`));
      });
      document.head.append(script);
    });
    // Loaded, window.turnstile answers from now on; failed, the next call tries again.
    const done = () => {
      if (scriptLoad === loading) scriptLoad = undefined;
    };
    loading.then(done, done);
    scriptLoad = loading;
  }
  return scriptLoad;
}

/**
 * Starts a widget in `container` and returns at once; the script loads and the widget renders
 * in the background. When that fails, it is logged, token() answers undefined without waiting
 * (the form is sent without a token and the server says whether that will do), and the next
 * token() tries again, as the failure may have been a passing one.
 */
export function mountTurnstile(container: HTMLElement, siteKey: string): TurnstileWidget {
  let api: TurnstileApi | undefined;
  let widgetId: string | undefined;
  let latest: string | undefined;
  let state: "starting" | "rendered" | "failed" | "removed" = "starting";
  const waiting = new Set<(token: string | undefined) => void>();

  const settle = (token: string | undefined) => {
    for (const resolve of waiting) resolve(token);
    waiting.clear();
  };

  const options: TurnstileRenderOptions = {
    sitekey: siteKey,
    callback: (token) => {
      latest = token;
      settle(token);
    },
    // Turnstile refreshes an expired token by itself; until then there is none to send.
    "expired-callback": () => {
      latest = undefined;
    },
    // Turnstile retries by itself (its "retry" option defaults to "auto"): a token may still come.
    "error-callback": (code) => {
      latest = undefined;
      console.warn(`Turnstile reported error ${code}; it tries again.`);
      return true;
    },
    appearance: "interaction-only",
    "response-field": false,
  };

  function render(): void {
    state = "starting";
    loadTurnstile()
      .then((loaded) => {
        if (state === "removed") return;
        const id = loaded.render(container, options);
        if (typeof id !== "string") throw new Error("turnstile.render() returned no widget id.");
        api = loaded;
        widgetId = id;
        state = "rendered";
      })
      .catch((error: unknown) => {
        if (state === "removed") return;
        state = "failed";
        console.error("Turnstile could not be started; the form is sent without its token.", error);
        settle(undefined);
      });
  }

  render();

  return {
    token() {
      if (latest !== undefined) return Promise.resolve(latest);
      if (state === "removed") return Promise.resolve(undefined);
      if (state === "failed") render();
      return new Promise((resolve) => waiting.add(resolve));
    },
    reset() {
      latest = undefined;
      // Anyone still waiting has given up already (the caller's wait is bounded): let them go.
      settle(undefined);
      if (api && widgetId !== undefined) api.reset(widgetId);
    },
    remove() {
      state = "removed";
      latest = undefined;
      settle(undefined);
      if (api && widgetId !== undefined) api.remove(widgetId);
    },
  };
}
