import type { ReactNode, Ref } from "react";
import { admin } from "../content";

/**
 * A section of the console: a landmark named by its heading, which the section links reach.
 * With `headingRef`, the heading can take focus (tabindex -1): a list moves focus there after
 * a page change, so the new page is read from its top.
 */
export function Section({
  id,
  title,
  actions,
  children,
  headingRef,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="admin-section">
      <div className="admin-section__head">
        <h2 id={`${id}-title`} ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
          {title}
        </h2>
        {actions && <div className="admin-section__actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** A value that may be missing: the value, or a dash (read as "none"). */
export function Value({ children }: { children: ReactNode }) {
  if (children !== null && children !== undefined && children !== "") return <>{children}</>;
  return (
    <span className="muted">
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{admin.none}</span>
    </span>
  );
}

/** After a failed read: a small button that asks again. */
export function TryAgain({ onClick }: { onClick: () => void }) {
  return (
    <p>
      <button type="button" className="button button--small" onClick={onClick}>
        {admin.tryAgain}
      </button>
    </p>
  );
}

/**
 * A live region that is always in the page (a region added together with its text is often not
 * announced): a status (polite) and, for failures, an alert.
 */
export function Messages({
  status,
  error,
  statusRef,
}: {
  status: string | null;
  error: string | null;
  statusRef?: Ref<HTMLParagraphElement>;
}) {
  return (
    <>
      <p role="status" className={status ? "status" : "status status--empty"} ref={statusRef} tabIndex={-1}>
        {status}
      </p>
      <p role="alert" className={error ? "error" : "error error--empty"}>
        {error}
      </p>
    </>
  );
}

/**
 * A button that says it is busy while its action runs, and ignores presses meanwhile. It stays
 * focusable (aria-disabled, not disabled), so keyboard focus is not lost to the page. `inactive`
 * disables it the same way while its action has nothing to do (its label unchanged).
 */
export function BusyButton({
  busy,
  onClick,
  className = "button",
  children,
  busyLabel,
  type = "button",
  disabled,
  inactive = false,
  describedBy,
}: {
  busy: boolean;
  onClick?: () => void;
  className?: string;
  children: ReactNode;
  busyLabel: string;
  type?: "button" | "submit";
  disabled?: boolean;
  inactive?: boolean;
  describedBy?: string;
}) {
  return (
    <button
      type={type}
      className={className}
      aria-disabled={busy || inactive || undefined}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={(event) => {
        if (busy || inactive) {
          event.preventDefault();
          return;
        }
        onClick?.();
      }}
    >
      {busy ? busyLabel : children}
    </button>
  );
}
