import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { useAuth } from "../auth/auth-context";
import { getAuthClient } from "../auth/client";
import { header } from "../content";
import { ROUTES } from "../routes";

/**
 * The header's sign-in area (spec §2): the user's e-mail, a link to their "My place" page, and a Logout button when signed in,
 * otherwise a Login link (a quieter button than Get Early Access, the page's main action).
 * Logging out ends this device's session only and goes home; `onLoggedOut` then lets the header
 * close its menu.
 */
export function AuthStatus({ onLoggedOut }: { onLoggedOut?: () => void }) {
  const { email } = useAuth();
  const [, navigate] = useLocation();
  const [loggingOut, setLoggingOut] = useState(false);
  const loginRef = useRef<HTMLAnchorElement>(null);
  const focusLoginWhenShown = useRef(false);

  // The Logout button that had focus is gone: focus moves to the Login link that replaced it,
  // where it is on screen (the full header; in the phone menu, which closes, the header puts it
  // on the menu toggle), and only if nothing else took it meanwhile.
  useEffect(() => {
    if (email !== null || !focusLoginWhenShown.current) return;
    focusLoginWhenShown.current = false;
    const link = loginRef.current;
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (link && focusLost && link.getClientRects().length > 0) link.focus();
  }, [email]);

  async function logout() {
    setLoggingOut(true);
    try {
      const client = await getAuthClient();
      focusLoginWhenShown.current = true;
      // "local" removes the stored session before asking the server to revoke it, so the device
      // is signed out even when the request fails; auth-js then announces SIGNED_OUT to all tabs.
      await client.signOut({ scope: "local" });
      navigate("/");
      onLoggedOut?.();
    } catch (error) {
      focusLoginWhenShown.current = false;
      console.error("Logout failed.", error);
    } finally {
      setLoggingOut(false);
    }
  }

  if (email === null) {
    return (
      <div className="auth-status">
        <Link ref={loginRef} href="/login" className="button auth-status__login">
          {header.loginLink}
        </Link>
      </div>
    );
  }

  return (
    <div className="auth-status">
      {/* The address is the way to "My place" (/#/me): status, place, referral link, own data. */}
      <Link href={ROUTES.me} className="auth-status__email" title={email}>
        <span className="visually-hidden">{header.myPlaceLink}</span> {email}
      </Link>
      <button type="button" className="button auth-status__logout" onClick={logout} disabled={loggingOut}>
        {header.logoutButton}
      </button>
    </div>
  );
}
