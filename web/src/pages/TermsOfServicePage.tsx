import { LegalPage } from "../components/LegalPage";
import { termsOfService } from "../content";

/** /terms-of-service (spec §2). */
export function TermsOfServicePage() {
  return <LegalPage content={termsOfService} />;
}
