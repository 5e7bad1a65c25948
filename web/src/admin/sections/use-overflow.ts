import { type RefObject, useEffect, useState } from "react";

/**
 * Whether a scrolling box is wider inside than it shows (its table overflows), measured now and
 * whenever it resizes: the scroll hint shows then, at any width, and never when all fits.
 */
export function useOverflow(ref: RefObject<HTMLElement | null>, rows: unknown): boolean {
  const [overflow, setOverflow] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the rows change.
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflow(box.scrollWidth > box.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref, rows]);
  return overflow;
}
