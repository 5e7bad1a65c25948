import { useSyncExternalStore } from "react";

const neverChanges = () => () => {};

/**
 * False in the prerendered HTML and while React hydrates it, true from then on (and at once when
 * a page is rendered in the browser from scratch). Forms keep their submit button disabled until
 * then: before the script has taken over, submitting would make the browser send the form itself.
 */
export function useInteractive(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
