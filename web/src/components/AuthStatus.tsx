import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useAuth } from "../auth/auth-context";
import { getAuthClient } from "../auth/client";
import { header } from "../content";

/**
 * The header's sign-in area (spec §2): the user's e-mail and a Logout button when signed in,
 * otherwise a Login link. Logging out ends this device's session only and goes home.
 */
export function AuthStatus() {
  const { email } = useAuth();
  const [, navigate] = useLocation();
  const [loggingOut, setLoggingOut] = useState(false);

  async function logout() {
    setLoggingOut(true);
    try {
      const client = await getAuthClient();
      // "local" removes the stored session before asking the server to revoke it, so the device
      // is signed out even when the request fails; auth-js then announces SIGNED_OUT to all tabs.
      await client.signOut({ scope: "local" });
      navigate("/");
    } catch (error) {
      console.error("Logout failed.", error);
    } finally {
      setLoggingOut(false);
    }
  }

  if (email === null) {
    return (
      <div className="auth-status">
        <Link href="/login" className="button button--primary">
          {header.loginLink}
        </Link>
      </div>
    );
  }

  return (
    <div className="auth-status">
      <span className="auth-status__email" title={email}>
        <span className="visually-hidden">{header.signedInAs} </span>
        {email}
      </span>
      <button type="button" className="button" onClick={logout} disabled={loggingOut}>
        {header.logoutButton}
      </button>
    </div>
  );
}
