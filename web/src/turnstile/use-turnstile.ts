import { useEffect, useRef, type RefObject } from "react";
import { SITE_KEY_META } from "./names";
import type { TurnstileWidget } from "./widget";

const SITE_KEY_SELECTOR = `meta[name="${SITE_KEY_META}"]`;

/**
 * How long a submission waits for a token it does not have yet (the script still loading, a
 * challenge running). Then the form is sent without one, and the server's refusal (403) is shown:
 * better than a form that never answers.
 */
export const TOKEN_WAIT_MS = 10_000;

export type FormTurnstile = {
  /** The element the widget goes into: an empty <div> inside the form, rendered on every page. */
  containerRef: RefObject<HTMLDivElement | null>;
  /**
   * For the form's onFocus and onInput: the visitor starts using the form, so Turnstile starts
   * (once) if the page has a site key. Nothing happens on pages without one.
   */
  start: () => void;
  /** The token to send with this submission, waiting for it up to TOKEN_WAIT_MS; undefined without one. */
  token: () => Promise<string | undefined>;
  /** After a submission: its token is used up, so Turnstile must issue a new one. */
  reset: () => void;
};

/**
 * Turnstile for one form, loaded only when it is needed: the widget's code and Turnstile's own
 * script are not part of the page's first load, and a page without a site key never asks for them.
 */
export function useTurnstile(): FormTurnstile {
  const containerRef = useRef<HTMLDivElement>(null);
  const widget = useRef<Promise<TurnstileWidget | undefined>>(undefined);

  useEffect(
    () => () => {
      void widget.current?.then((started) => started?.remove());
      widget.current = undefined;
    },
    [],
  );

  function start(): Promise<TurnstileWidget | undefined> | undefined {
    if (widget.current) return widget.current;
    const siteKey = document.querySelector<HTMLMetaElement>(SITE_KEY_SELECTOR)?.content;
    const container = containerRef.current;
    if (!siteKey || !container) return undefined;
    const starting = import("./widget").then(
      ({ mountTurnstile }) => mountTurnstile(container, siteKey),
      (error: unknown) => {
        console.error("Turnstile's widget code could not be loaded; the form is sent without its token.", error);
        // Not remembered: the next focus tries again.
        if (widget.current === starting) widget.current = undefined;
        return undefined;
      },
    );
    widget.current = starting;
    return starting;
  }

  async function token(): Promise<string | undefined> {
    const starting = start();
    if (!starting) return undefined;
    let timer: number | undefined;
    const timeout = new Promise<undefined>((resolve) => (timer = window.setTimeout(resolve, TOKEN_WAIT_MS)));
    try {
      return await Promise.race([starting.then((started) => started?.token()), timeout]);
    } finally {
      window.clearTimeout(timer);
    }
  }

  function reset(): void {
    void widget.current?.then((started) => started?.reset());
  }

  return { containerRef, start: () => void start(), token, reset };
}
