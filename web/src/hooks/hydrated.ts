import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the prerendered HTML and while React hydrates it, true from then on (and at once when
 * a page is rendered in the browser from scratch): React renders the hydrated page again with
 * true right after hydrating it, so the markup the prerender made is matched first.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
