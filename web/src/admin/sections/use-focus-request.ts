import { useCallback, useEffect, useRef, useState } from "react";

/**
 * An element that takes focus when asked: `request()` moves focus to `ref`'s element after the
 * next render, once that render has put it in the page (a question that appears, a button that
 * comes back, a result that replaces a form).
 */
export function useFocusRequest<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    if (requests > 0) ref.current?.focus();
  }, [requests]);
  const request = useCallback(() => setRequests((n) => n + 1), []);
  return { ref, request };
}
