import { longDateTime } from "@shared/dates";
import type { ReactNode, Ref } from "react";

/**
 * An ISO time in words, in the e-mails' style and the visitor's own zone, named ("25 November
 * 2026, 05:12 CET"; issue 22); its datetime attribute keeps the exact instant.
 */
export function Time({ iso }: { iso: string }) {
  if (Number.isNaN(new Date(iso).getTime())) return <>{iso}</>;
  return <time dateTime={iso}>{longDateTime(iso)}</time>;
}

/** One fact of a section's list (a `<dl className="me__facts">`): its name and value. */
export function Fact({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/**
 * What a section's action came to: a status line and an alert, always in the page (a live region
 * added together with its text is often not announced), empty until there is something to say.
 */
export function Said({ success, error, successRef }: { success: string; error: string; successRef?: Ref<HTMLParagraphElement> }) {
  return (
    <>
      <p ref={successRef} tabIndex={successRef ? -1 : undefined} className="message message--success" role="status">
        {success}
      </p>
      <p className="message message--error" role="alert">
        {error}
      </p>
    </>
  );
}
