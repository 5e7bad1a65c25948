import { useEffect, useRef, type ReactNode } from "react";

/** A view's <h1>, focused when it replaced another view because of something the operator did. */
export function ViewHeading({ focus, children, className }: { focus: boolean; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <h1 ref={ref} tabIndex={-1} className={className}>
      {children}
    </h1>
  );
}
