/**
 * Every piece of copy the site shows, in one place, so wording changes never touch components:
 * the launch team edits words, claims, the brand and the contact address here. Strings quoted by
 * the product spec (sections 2, 5, 8 and 9) are reproduced exactly; the waitlist and contact
 * form messages are the worker's own (worker/shared), so the page and the API never disagree.
 */
import { BRAND_NAME } from "@shared/brand";
import { FORM_MESSAGES } from "@shared/forms";
import { FORM_PAGE_TEXT, PUBLIC_FORM_ERRORS } from "@shared/public-forms";
import { CODE_LENGTH } from "@shared/sign-in";
import { WAITLIST_MESSAGES } from "@shared/waitlist";
import { SECTION_IDS, type SectionId } from "./routes";

// ---------------------------------------------------------------------------------------------
// Business constants (spec §9)

/** Spec §4 and §9: after a successful sign-in the page waits this long before going home. */
export const LOGIN_REDIRECT_DELAY_MS = 1500;

/** Spec §9: the demo types one character every 50 ms. */
export const DEMO_TYPING_MS_PER_CHAR = 50;

/**
 * Spec §9: one delay per demo step, in step order. Each is the pause after that step is fully
 * typed (see components/demo-timeline.ts), so the last one is how long the finished solution
 * stays on screen before the next loop.
 */
export const DEMO_STEP_DELAYS_MS = [1000, 1500, 2000, 1000, 1500, 2000] as const;

/** Spec §9: the demo starts over this long after the previous run started. */
export const DEMO_LOOP_MS = 15_000;

/** Spec §2 and §9: the header turns blurred and darker once the page is scrolled past this. */
export const HEADER_SCROLL_THRESHOLD_PX = 50;

/** The year of the footer's copyright line (a constant: the prerendered page must not vary). */
export const COPYRIGHT_YEAR = 2025;

/** Where visitors write to: shown on the privacy policy (spec §2 "Contact Us") and the contact section. */
export const contactEmail = "hello@homeworkhelper.app";

/** The claims of spec §1 and §9, used wherever the copy states them. */
export const claims = {
  launch: "Q3 2025",
  studentsWaiting: "1,000+",
  accuracyRate: "99%",
  responseTime: "under 30s",
} as const;

/** The anchors of the home page's sections: defined in routes.ts (see there), named here too. */
export { SECTION_IDS, type SectionId };

// ---------------------------------------------------------------------------------------------
// Types

export type BrandContent = {
  name: string;
  tagline: string;
};

/** A header button that scrolls the home page to one of its sections. */
export type SectionLink = {
  label: string;
  target: SectionId;
  /** What takes focus there: the section's heading (the default), or its e-mail field (the waitlist buttons). */
  focus?: "heading" | "email";
};

export type HeaderContent = {
  /** The first link of every page, shown when focused: it moves focus to the page's content. */
  skipLink: string;
  /** Accessible name of the brand link, which leads home. */
  homeLinkLabel: string;
  loginLink: string;
  logoutButton: string;
  /**
   * Read before the e-mail by screen readers in the header's link to "My place" (/#/me), so the
   * bare address makes sense and says where it goes.
   */
  myPlaceLink: string;
  /** Accessible name of the section navigation. */
  navLabel: string;
  /** Accessible name of the small-screen menu button (its state is aria-expanded). */
  menuButton: string;
  sections: readonly SectionLink[];
  /** The highlighted call to action at the end of the navigation. */
  cta: SectionLink;
};

/** Keys of the icons the home page draws (components/Icon.tsx maps them to lucide icons). */
export type IconName =
  | "zap"
  | "camera"
  | "lightbulb"
  | "gift"
  | "brain"
  | "graduation-cap"
  | "calculator"
  | "atom"
  | "flask"
  | "landmark"
  | "book-open"
  | "dna"
  | "rocket"
  | "badge-check";

export type Badge = { icon: IconName; text: string };

export type HeroContent = {
  eyebrow: string;
  /** The headline is `headline` with `headlineAccent` (its ending) highlighted. */
  headline: string;
  headlineAccent: string;
  intro: string;
  badges: readonly [Badge, Badge, Badge];
  /** Accessible name of the badge list. */
  badgesLabel: string;
};

export type DemoStepKind = "question" | "thinking" | "step" | "calculation" | "solution" | "result";

export type DemoStep = { kind: DemoStepKind; text: string };

/** Spec §2: six steps in this order: question, thinking, step, calculation, solution, result. */
export type DemoScript = readonly [
  DemoStep & { kind: "question" },
  DemoStep & { kind: "thinking" },
  DemoStep & { kind: "step" },
  DemoStep & { kind: "calculation" },
  DemoStep & { kind: "solution" },
  DemoStep & { kind: "result" },
];

export type DemoContent = {
  /** The title bar of the demo window. */
  title: string;
  /** Shown next to the title: what kind of demo this is. */
  subtitle: string;
  /** Read by screen readers instead of the animation, before the finished solution. */
  description: string;
  kindLabels: Record<DemoStepKind, string>;
  steps: DemoScript;
};

export type Card = { icon: IconName; title: string; text: string };

export type SectionIntro = { title: string; intro: string };

export type FeaturesContent = SectionIntro & { items: readonly Card[] };

export type HowItWorksContent = SectionIntro & {
  /** Spec §1: Snap or Type, AI Analyzes, Learn & Excel. */
  steps: readonly [Card, Card, Card];
  /** Read before each step's number, e.g. "Step 1". */
  stepLabel: string;
};

export type Stat = { value: string; label: string };

export type AdvancedAiContent = SectionIntro & {
  points: readonly string[];
  stats: readonly Stat[];
};

export type Subject = { icon: IconName; name: string; text: string };

export type SubjectsContent = SectionIntro & {
  /** Spec §1: Mathematics, Physics, Chemistry, History, Literature, Biology. */
  items: readonly [Subject, Subject, Subject, Subject, Subject, Subject];
};

export type ContactSectionContent = SectionIntro & {
  /** Followed by the contact e-mail as a link. */
  emailPrompt: string;
};

export type ClosingCtaContent = SectionIntro;

export type FooterContent = {
  tagline: string;
  linksLabel: string;
  privacyLink: string;
  termsLink: string;
  copyright: string;
};

export type WaitlistFormContent = {
  /** Spec §2: the default call-to-action label. */
  defaultLabel: string;
  /** Spec §1: the label of the closing call-to-action's form. */
  ctaLabel: string;
  emailLabel: string;
  emailPlaceholder: string;
  loading: string;
  successTitle: string;
  successDetail: string;
  /** Under the spec's two success lines: look for the joiner's e-mail (issue 16). */
  checkInbox: string;
  addAnother: string;
  note: string;
  /** The API's answers (spec §5, §8), and what the site says to a refusal any public form can get. */
  messages: typeof WAITLIST_MESSAGES & typeof PUBLIC_FORM_ERRORS;
};

export type ContactFormContent = {
  submit: string;
  sending: string;
  /** Spec §2: the disabled first option of a select. */
  selectPlaceholder: string;
  /** The API's answers (spec §8), and what the site says to a refusal any public form can get. */
  messages: typeof FORM_MESSAGES & typeof PUBLIC_FORM_ERRORS;
};

export type HoneypotContent = {
  /**
   * The label of the field people never see (components/Honeypot.tsx). It is read only where
   * styles are off, a text browser say: there it must tell a person to leave the field alone.
   */
  label: string;
};

export type NoScriptContent = {
  /** Accessible name of the note's landmark (components/NoScriptNote.tsx). */
  label: string;
  /** Shown only when the browser runs no JavaScript. */
  signIn: string;
};

export type LegalSection = {
  heading: string;
  paragraphs: readonly string[];
  items?: readonly string[];
  /** Paragraphs after the list. */
  after?: readonly string[];
  /** Shown as a mailto link after the paragraphs. */
  email?: string;
};

export type LegalPageContent = {
  title: string;
  /** Spec §2: both pages were last updated October 26, 2025; a page whose text changed since, on the day it changed. */
  lastUpdated: string;
  lastUpdatedLabel: string;
  sections: readonly [LegalSection, LegalSection, LegalSection, LegalSection, LegalSection];
  backToHome: string;
};

/**
 * What the /#/me route shows before its own code (web/src/pages/me, a chunk of its own) is in:
 * its heading and a loading line. The page's other words live with it (pages/me/content.ts), so
 * the home page's first-load script does not carry them.
 */
export type MyPlaceShellContent = { title: string; loading: string };

/** A page whose code is a chunk of its own could not be loaded (offline, or a deploy replaced the files). */
export type PageLoadContent = { failed: string; retry: string };

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
  /** Step two's own way to have a new code sent to the same address, without leaving the step. */
  sendNewCode: string;
  /** Under the send button while a rate limit runs; `wait` comes from `waitFor`. */
  newCodeCountdown: (wait: string) => string;
  /** A wait in words a student reads at a glance: seconds up to 90, then minutes, then hours. */
  waitFor: (seconds: number) => string;
  backToHome: string;
  /** /login while signed in: who is signed in and a Logout button instead of the form. */
  signedInView: { title: string; text: (email: string) => string; logout: string };
  messages: {
    emailRequired: string;
    /** The address fails the waitlist's e-mail rule (checked before sending), or the server's. */
    emailInvalid: string;
    codeRequired: string;
    /** Fewer digits than the code has: nothing is sent, so no guess is spent on it. */
    codeIncomplete: string;
    codeSent: string;
    codeRequestFailed: string;
    verificationFailed: string;
    signedIn: string;
    /** The code is wrong, expired, used, or has had too many guesses (otp_expired). */
    codeRejected: string;
    /** A wrong code while the server says tries remain on it. */
    codeWrongTriesLeft: (tries: number) => string;
    /** A code went to this address a moment ago (over_email_send_rate_limit): use it or wait. */
    codeAlreadySent: string;
    /** Too many code requests from this device (over_request_rate_limit on /otp); a countdown follows. */
    tooManyCodeRequests: string;
    /** Too many verifications from this device (over_request_rate_limit on /verify). */
    tooManyAttempts: (wait: string) => string;
    loggedOut: string;
    logoutFailed: string;
  };
};

/** The browser tab's title per route (the home page's matches web/index.html). */
export type DocumentTitles = { home: string; privacyPolicy: string; termsOfService: string; login: string; me: string };

// ---------------------------------------------------------------------------------------------
// Copy

export const brand: BrandContent = {
  // Shared with the worker, which names the product in the e-mails it sends.
  name: BRAND_NAME,
  tagline: "Instant, step-by-step homework help that teaches you the why.",
};

export const documentTitles: DocumentTitles = {
  home: `${brand.name}: coming soon`,
  privacyPolicy: `Privacy Policy | ${brand.name}`,
  termsOfService: `Terms of Service | ${brand.name}`,
  login: `Sign In | ${brand.name}`,
  me: `My place | ${brand.name}`,
};

export const header: HeaderContent = {
  skipLink: "Skip to content",
  homeLinkLabel: `${brand.name}: home`,
  loginLink: "Login",
  logoutButton: "Logout",
  myPlaceLink: "My place: signed in as",
  navLabel: "Sections",
  menuButton: "Menu",
  sections: [
    { label: "Home", target: SECTION_IDS.hero },
    { label: "Join Waitlist", target: SECTION_IDS.hero, focus: "email" },
    { label: "Features", target: SECTION_IDS.features },
    { label: "How It Works", target: SECTION_IDS.howItWorks },
  ],
  cta: { label: "Get Early Access", target: SECTION_IDS.hero, focus: "email" },
};

export const myPlaceShell: MyPlaceShellContent = {
  title: "My place",
  loading: "Loading your place…",
};

export const pageLoad: PageLoadContent = {
  failed: "This page could not be loaded. Check your connection and try again.",
  retry: "Try again",
};

export const hero: HeroContent = {
  eyebrow: "Coming soon: AI homework help for students",
  headline: "Your Homework, Solved in Seconds",
  headlineAccent: "Solved in Seconds",
  intro:
    "Snap a photo or type any question and get a clear, step-by-step explanation in " +
    `${claims.responseTime}, so you understand the answer, not just copy it.`,
  badgesLabel: "At a glance",
  badges: [
    { icon: "rocket", text: `Launching ${claims.launch}` },
    { icon: "gift", text: "Free for students" },
    { icon: "badge-check", text: "No subscriptions" },
  ],
};

export const demo: DemoContent = {
  title: `${brand.name} AI`,
  subtitle: "Live demo",
  description: "Example: how the AI explains a quadratic equation, step by step.",
  kindLabels: {
    question: "Question",
    thinking: "Thinking",
    step: "Step",
    calculation: "Calculation",
    solution: "Solution",
    result: "Result",
  },
  // The whole script must type within the loop (see components/demo-timeline.ts): 103
  // characters take 5150 ms, plus 9000 ms of step delays, so it is complete at 14150 ms.
  steps: [
    { kind: "question", text: "Solve x² − 5x + 6 = 0" },
    { kind: "thinking", text: "Factor the trinomial" },
    { kind: "step", text: "(x − 2)(x − 3) = 0" },
    { kind: "calculation", text: "x − 2 = 0, x − 3 = 0" },
    { kind: "solution", text: "x = 2 or x = 3" },
    { kind: "result", text: "Verified ✓" },
  ],
};

export const features: FeaturesContent = {
  title: "Everything You Need to Ace Your Homework",
  intro: "Built for students who want answers they can follow, check and learn from.",
  items: [
    {
      icon: "zap",
      title: "Answers in Seconds",
      text: `Get a complete, worked solution with a response time ${claims.responseTime}, even late the night before it's due.`,
    },
    {
      icon: "camera",
      title: "Snap or Type",
      text: "Take a photo of a worksheet or type the question. Handwriting, diagrams and equations all work.",
    },
    {
      icon: "lightbulb",
      title: "Learn the Why",
      text: "Every step is explained in plain language, so you can solve the next problem on your own.",
    },
    {
      icon: "gift",
      title: "Free for Students",
      text: "No subscriptions and no hidden fees. Homework help should not depend on a credit card.",
    },
  ],
};

export const howItWorks: HowItWorksContent = {
  title: "How It Works",
  intro: "From stuck to understood in three steps.",
  stepLabel: "Step",
  steps: [
    {
      icon: "camera",
      title: "Snap or Type",
      text: "Photograph your homework or type the question, in any subject.",
    },
    {
      icon: "brain",
      title: "AI Analyzes",
      text: "Our AI reads the problem, works out the method and checks its answer.",
    },
    {
      icon: "graduation-cap",
      title: "Learn & Excel",
      text: "Follow a clear, step-by-step explanation and master the concept for your next test.",
    },
  ],
};

export const advancedAi: AdvancedAiContent = {
  title: "Powered by Advanced AI",
  intro: "Our models are tuned for schoolwork: they show their reasoning, check their results and " + "explain each step at your level.",
  points: [
    "Understands handwritten and printed problems",
    "Explains the method, not only the final answer",
    "Double-checks every result before you see it",
  ],
  stats: [
    { value: claims.accuracyRate, label: "Accuracy rate" },
    { value: "<30s", label: "Response time" },
    { value: claims.studentsWaiting, label: "Students waiting" },
  ],
};

export const subjects: SubjectsContent = {
  title: "Every Subject, Covered",
  intro: "From basic arithmetic to advanced calculus, and everything in between.",
  items: [
    { icon: "calculator", name: "Mathematics", text: "Arithmetic, algebra, geometry and calculus." },
    { icon: "atom", name: "Physics", text: "Motion, forces, energy, waves and circuits." },
    { icon: "flask", name: "Chemistry", text: "Reactions, stoichiometry and the periodic table." },
    { icon: "landmark", name: "History", text: "Events, causes and essay planning." },
    { icon: "book-open", name: "Literature", text: "Themes, characters and close reading." },
    { icon: "dna", name: "Biology", text: "Cells, genetics, ecology and the human body." },
  ],
};

export const contactSection: ContactSectionContent = {
  title: "Get in Touch",
  intro: "Questions about the launch, schools or partnerships? Send us a message and we'll reply.",
  emailPrompt: "Prefer email? Write to",
};

export const closingCta: ClosingCtaContent = {
  title: "Be the First to Try It",
  intro: `Join ${claims.studentsWaiting} students waiting for launch in ${claims.launch}. ` + "Free for students, no subscriptions.",
};

export const footer: FooterContent = {
  tagline: brand.tagline,
  linksLabel: "Legal",
  privacyLink: "Privacy Policy",
  termsLink: "Terms of Service",
  copyright: `© ${COPYRIGHT_YEAR} ${brand.name}. All rights reserved.`,
};

export const waitlistForm: WaitlistFormContent = {
  defaultLabel: "Join the Inner Circle",
  ctaLabel: "Get Early Access",
  // The worker's words, which its page shows too when it gives a form posted without JavaScript back.
  emailLabel: FORM_PAGE_TEXT.waitlistEmailLabel,
  emailPlaceholder: FORM_PAGE_TEXT.waitlistEmailPlaceholder,
  loading: "Joining...",
  // The worker's words, so the page the server answers a form post with says the same.
  successTitle: WAITLIST_MESSAGES.successTitle,
  successDetail: WAITLIST_MESSAGES.successDetail,
  checkInbox: WAITLIST_MESSAGES.checkInbox,
  addAnother: "Add another email",
  note: "Join thousands of students already on our waitlist. No spam, ever.",
  messages: { ...WAITLIST_MESSAGES, ...PUBLIC_FORM_ERRORS },
};

export const contactForm: ContactFormContent = {
  submit: FORM_PAGE_TEXT.contactSubmit,
  sending: "Sending...",
  selectPlaceholder: FORM_PAGE_TEXT.selectPlaceholder,
  messages: { ...FORM_MESSAGES, ...PUBLIC_FORM_ERRORS },
};

export const honeypot: HoneypotContent = {
  label: FORM_PAGE_TEXT.honeypotLabel,
};

export const noScript: NoScriptContent = {
  label: "JavaScript is off",
  signIn: "JavaScript is turned off in this browser, and signing in needs it. You can still join the waitlist and send us a message.",
};

export const login: LoginContent = {
  emailStep: {
    title: "Sign In",
    intro: `Enter your email address and we'll send you a ${CODE_LENGTH}-digit code.`,
    submit: "Send Code",
  },
  codeStep: {
    title: "Verify Code",
    intro: (email) => `A ${CODE_LENGTH}-digit code was sent to ${email}.`,
    submit: "Verify Code",
  },
  emailLabel: "Email address",
  emailPlaceholder: "you@example.com",
  codeLabel: "Verification code",
  codePlaceholder: "000000",
  sending: "Sending...",
  verifying: "Verifying...",
  resend: "Resend code or change email",
  sendNewCode: "Send a new code",
  newCodeCountdown: (wait) => `You can ask for a new code in ${wait}.`,
  waitFor: (seconds) => {
    const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
    if (seconds <= 90) return count(Math.max(1, Math.ceil(seconds)), "second");
    if (seconds <= 90 * 60) return count(Math.ceil(seconds / 60), "minute");
    return count(Math.ceil(seconds / 3600), "hour");
  },
  backToHome: "Back to Home",
  signedInView: {
    title: "Already signed in",
    text: (email) => `You're signed in as ${email}.`,
    logout: "Logout",
  },
  messages: {
    emailRequired: "Please enter your email address.",
    emailInvalid: "That doesn't look like an email address. Please check it (it should look like name@example.com).",
    codeRequired: "Please enter the verification code.",
    codeIncomplete: `Please enter all ${CODE_LENGTH} digits of the code.`,
    codeSent: "Verification code sent to your email!",
    codeRequestFailed: "Failed to send verification code. Please try again.",
    verificationFailed: "Invalid verification code. Please try again.",
    signedIn: "Successfully logged in! Redirecting...",
    codeRejected: "That code is wrong or has expired. Check the newest email from us, or ask for a new code.",
    codeWrongTriesLeft: (tries) =>
      `That code is wrong or has expired. ${tries === 1 ? "1 try is" : `${tries} tries are`} left for this code: check the newest email from us, or ask for a new code.`,
    codeAlreadySent:
      "We already sent a code to this address. Enter the newest code from your email, or ask for a new one when the countdown ends.",
    tooManyCodeRequests: "You've asked for a lot of codes from this device. Please wait a little.",
    tooManyAttempts: (wait) => `Too many tries from this device. Please wait ${wait} and try again.`,
    loggedOut: "You're logged out. You can sign in again below.",
    logoutFailed: "Logging out didn't work. Please check your connection and try again.",
  },
};
