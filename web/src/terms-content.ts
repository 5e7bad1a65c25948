/**
 * The terms of service's words (spec §2; pages/TermsOfServicePage.tsx), apart from the privacy
 * policy's (legal-content.ts): both pages are in the legal chunk.
 */
import { brand } from "./content";

/** Spec §2: both pages were last updated on this day; a page whose text changed since (the privacy policy: legal-content.ts) on the day it changed. */
const LEGAL_LAST_UPDATED = "October 26, 2025";

export const termsOfService = {
  title: "Terms of Service",
  lastUpdated: LEGAL_LAST_UPDATED,
  lastUpdatedLabel: "Last updated",
  backToHome: "Back to Home",
  sections: [
    {
      heading: "Agreement to Terms",
      paragraphs: [
        `These terms govern your use of the ${brand.name} website and service. By using them you agree ` +
          "to these terms; if you do not agree, please do not use the service.",
      ],
    },
    {
      heading: "Use of the Service",
      paragraphs: [
        `${brand.name} is a learning aid. Use its explanations to understand your homework and follow ` +
          "your school's rules on academic integrity.",
      ],
      items: [
        "Give accurate information when you join the waitlist, contact us or sign in.",
        "Do not misuse the service: no automated sign-ups, spam or attempts to disrupt it.",
        "If you are under the age required in your country to agree to these terms, use the service with a parent's or guardian's permission.",
      ],
    },
    {
      heading: "Intellectual Property",
      paragraphs: [
        `The website, the ${brand.name} name and logo, and the service's content belong to us and are ` +
          "protected by law. You keep the rights to the questions and messages you send, and allow us " +
          "to process them to provide the service.",
      ],
    },
    {
      heading: "Limitation of Liability",
      paragraphs: [
        'The service is provided "as is". AI explanations can contain mistakes, so check important ' +
          "answers before you rely on them. To the extent the law allows, we are not liable for " +
          "indirect or consequential losses arising from your use of the service.",
      ],
    },
    {
      heading: "Governing Law",
      paragraphs: [
        `These terms are governed by the laws of the place where ${brand.name} is established, without ` +
          "regard to its conflict-of-law rules. Nothing in them limits rights you have under the " +
          "consumer protection laws of the country you live in.",
      ],
    },
  ],
} as const;
