import {
  AdvancedAiSection,
  ClosingCtaSection,
  ContactSection,
  FeaturesSection,
  HowItWorksSection,
  SubjectsSection,
} from "./home/ContentSections";
import { HeroSection } from "./home/HeroSection";

/** The home page (/), in the order of spec §1. Prerendered at build time, then hydrated. */
export function HomePage() {
  return (
    <>
      <HeroSection />
      <FeaturesSection />
      <HowItWorksSection />
      <AdvancedAiSection />
      <SubjectsSection />
      <ContactSection />
      <ClosingCtaSection />
    </>
  );
}
