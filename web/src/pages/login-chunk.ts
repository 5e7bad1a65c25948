import type { ComponentType } from "react";
import { ROUTES } from "../routes";
import { LoginPage } from "./LoginPage";

/** The sign-in page, a chunk of its own (./route-chunks.tsx loads it). */
export const PAGES: Readonly<Record<string, ComponentType>> = { [ROUTES.login]: LoginPage };
