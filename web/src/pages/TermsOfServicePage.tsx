import { LegalPage } from "../components/LegalPage";
import { termsOfService } from "../terms-content";

/** /terms-of-service (spec §2). */
export function TermsOfServicePage() {
  return <LegalPage content={termsOfService} />;
}
