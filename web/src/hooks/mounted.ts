import { useCallback, useEffect, useRef } from "react";

/**
 * A function that tells whether the component is still mounted. A form awaits its request and
 * then shows the answer; by then the visitor may have left the page, and a page that is gone must
 * not be changed (nor focus moved to it).
 */
export function useMounted(): () => boolean {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return useCallback(() => mounted.current, []);
}
