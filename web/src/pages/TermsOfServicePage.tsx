import { LegalPage } from "../components/LegalPage";
import { termsOfService } from "../legal-content";

/** /terms-of-service (spec §2). */
export function TermsOfServicePage() {
  return <LegalPage content={termsOfService} />;
}
