import { login } from "./content";

type Props = { headingId: string; email: string; loggingOut: boolean; onLogout: () => void };

/** Who is signed in already (a stored session, another tab), with Logout instead of the form. */
export function SignedInView({ headingId, email, loggingOut, onLogout }: Props) {
  return (
    <div className="login__form">
      <h1 id={headingId} tabIndex={-1}>
        {login.signedInView.title}
      </h1>
      <p className="login__signed-in">{login.signedInView.text(email)}</p>
      <button type="button" className="button button--primary" onClick={onLogout} disabled={loggingOut}>
        {login.signedInView.logout}
      </button>
    </div>
  );
}
