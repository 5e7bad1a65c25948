import { LegalPage } from "../components/LegalPage";
import { privacyPolicy } from "../legal-content";

/** /privacy-policy (spec §2); its contact e-mail is content.ts's `contactEmail`. */
export function PrivacyPolicyPage() {
  return <LegalPage content={privacyPolicy} />;
}
