import { createContext, useContext } from "react";
import type { AdminApi } from "./api";

export type ConsoleContextValue = {
  api: AdminApi;
  /**
   * What to do with a failed call: a message for the section to show, or null when the failure
   * changed the whole page (the session ended: the signed-out view; not an operator: the
   * not-authorised view).
   */
  report: (error: unknown) => string | null;
};

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error("useConsole must be used inside the console.");
  return value;
}
