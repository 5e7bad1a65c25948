/**
 * Every piece of copy the site shows, in one place, so wording changes never touch components
 * and the marketing pages can add their sections here next to the existing ones. Strings quoted
 * by the product spec (sections 2, 5, 8 and 9) are reproduced exactly.
 */
import { BRAND_NAME } from "../../worker/shared/brand";

/** Spec §9: the verification code has 6 digits. */
export const LOGIN_CODE_LENGTH = 6;

/** Spec §4 and §9: after a successful sign-in the page waits this long before going home. */
export const LOGIN_REDIRECT_DELAY_MS = 1500;

export type BrandContent = {
  name: string;
};

export type HomeContent = {
  headline: string;
  comingSoon: string;
  apiHint: string;
  apiLink: { href: string; label: string };
};

export type HeaderContent = {
  /** Accessible name of the brand link, which leads home. */
  homeLinkLabel: string;
  loginLink: string;
  logoutButton: string;
  /** Read before the e-mail by screen readers, so the bare address makes sense. */
  signedInAs: string;
};

export type LoginContent = {
  emailStep: { title: string; intro: string; submit: string };
  codeStep: { title: string; intro: (email: string) => string; submit: string };
  emailLabel: string;
  emailPlaceholder: string;
  codeLabel: string;
  codePlaceholder: string;
  sending: string;
  verifying: string;
  resend: string;
  backToHome: string;
  messages: {
    emailRequired: string;
    codeRequired: string;
    codeSent: string;
    codeRequestFailed: string;
    verificationFailed: string;
    signedIn: string;
  };
};

export const brand: BrandContent = {
  // Shared with the worker, which names the product in the e-mails it sends.
  name: BRAND_NAME,
};

export const home: HomeContent = {
  headline: "Your Homework, Solved in Seconds",
  comingSoon: "The site is coming soon.",
  apiHint: "The API is running: try",
  apiLink: { href: "/api/health", label: "/api/health" },
};

export const header: HeaderContent = {
  homeLinkLabel: `${brand.name}: home`,
  loginLink: "Login",
  logoutButton: "Logout",
  signedInAs: "Signed in as",
};

export const login: LoginContent = {
  emailStep: {
    title: "Sign In",
    intro: `Enter your email address and we'll send you a ${LOGIN_CODE_LENGTH}-digit code.`,
    submit: "Send Code",
  },
  codeStep: {
    title: "Verify Code",
    intro: (email) => `A ${LOGIN_CODE_LENGTH}-digit code was sent to ${email}.`,
    submit: "Verify Code",
  },
  emailLabel: "Email address",
  emailPlaceholder: "you@example.com",
  codeLabel: "Verification code",
  codePlaceholder: "000000",
  sending: "Sending...",
  verifying: "Verifying...",
  resend: "Resend code or change email",
  backToHome: "Back to Home",
  messages: {
    emailRequired: "Please enter your email address.",
    codeRequired: "Please enter the verification code.",
    codeSent: "Verification code sent to your email!",
    codeRequestFailed: "Failed to send verification code. Please try again.",
    verificationFailed: "Invalid verification code. Please try again.",
    signedIn: "Successfully logged in! Redirecting...",
  },
};
