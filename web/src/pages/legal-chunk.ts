import type { ComponentType } from "react";
import { ROUTES } from "../routes";
import { PrivacyPolicyPage } from "./PrivacyPolicyPage";
import { TermsOfServicePage } from "./TermsOfServicePage";

/** The legal pages, one chunk for both (./route-chunks.tsx loads it). */
export const PAGES: Readonly<Record<string, ComponentType>> = {
  [ROUTES.privacyPolicy]: PrivacyPolicyPage,
  [ROUTES.termsOfService]: TermsOfServicePage,
};
