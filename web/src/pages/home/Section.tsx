import type { ReactNode } from "react";
import type { ClaimKey } from "@shared/claims";
import type { SectionId } from "../../routes";

/**
 * A home page section: an anchor the header scrolls to, named by its heading. The heading takes
 * focus (tabIndex -1) when the header brings the visitor here.
 */
export function Section({
  id,
  title,
  intro,
  introClaim,
  className,
  children,
}: {
  id: SectionId;
  title: string;
  intro: string;
  /** The claim sentence the intro is (worker/shared/claims.ts), which the worker writes into the served page. */
  introClaim?: ClaimKey;
  className?: string;
  children: ReactNode;
}) {
  const titleId = `${id}-title`;
  return (
    <section id={id} className={className ? `section ${className}` : "section"} aria-labelledby={titleId}>
      <div className="container">
        <div className="section__header">
          <h2 id={titleId} tabIndex={-1}>
            {title}
          </h2>
          <p data-claim={introClaim}>{intro}</p>
        </div>
        {children}
      </div>
    </section>
  );
}
