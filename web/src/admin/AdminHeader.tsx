import type { ReactNode } from "react";
import { admin } from "./content";

/**
 * The top of every view of the console's page: the skip link to `mainId`, then the banner with
 * the brand and, beside it, `side` (the way back to the site, or who is signed in); `children`
 * go below, inside the banner (the console's navigation).
 */
export function AdminHeader({ mainId, side, children }: { mainId: string; side: ReactNode; children?: ReactNode }) {
  return (
    <>
      <a className="skip-link" href={`#${mainId}`}>
        {admin.skipLink}
      </a>
      <header className="admin-header">
        <div className="admin-header__inner">
          <p className="admin-brand">
            {admin.brand} <span className="admin-brand__sub">{admin.title}</span>
          </p>
          {side}
        </div>
        {children}
      </header>
    </>
  );
}
