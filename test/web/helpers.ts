import { vi } from "vitest";

/** An answer of the API: JSON with the given status. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** The API's error shape {"error":{"code","message"}}. */
export function apiError(status: number, code: string, message: string): Response {
  return jsonResponse(status, { error: { code, message } });
}

/** A promise settled by the test, to look at the page while a request is in flight. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (reason: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** fetch, answered by `answer` for every request. */
export function mockFetch(answer: () => Promise<Response>) {
  return vi.spyOn(globalThis, "fetch").mockImplementation(answer);
}

/** The JSON body of the n-th fetch call. */
export function sentBody(fetchSpy: ReturnType<typeof mockFetch>, call = 0): unknown {
  const init = fetchSpy.mock.calls[call]?.[1];
  return JSON.parse(String(init?.body));
}

/** The honeypot field of a public form (role queries cannot reach it: it is aria-hidden). */
export function honeypotOf(form: HTMLElement): HTMLInputElement {
  const field = form.querySelector<HTMLInputElement>('input[name="website"]');
  if (!field) throw new Error("The form has no honeypot field.");
  return field;
}

/** A media query answer that never changes (jsdom has no media queries). */
export function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  };
}

/** Answers every (prefers-reduced-motion) media query with `reduce`. */
export function preferReducedMotion() {
  return vi
    .spyOn(window, "matchMedia")
    .mockImplementation((query: string) => mediaQueryList(query, query.includes("prefers-reduced-motion: reduce")));
}
