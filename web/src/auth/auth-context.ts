import { createContext, useContext } from "react";

export type AuthState = {
  /** The signed-in user's e-mail, or null when nobody is signed in. */
  email: string | null;
};

export const AuthContext = createContext<AuthState | null>(null);

/** Who is signed in, kept current by AuthProvider. */
export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error("useAuth must be used inside <AuthProvider>.");
  return state;
}
