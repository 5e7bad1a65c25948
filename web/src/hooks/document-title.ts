import { useEffect } from "react";

/** Names the browser tab after the page shown (set in an effect: the prerender has no document). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
