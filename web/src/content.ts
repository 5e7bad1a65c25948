/**
 * The words of the site's own script: the page around every route (brand, tab titles, header,
 * footer, the note without JavaScript, the shells of pages that load later) and the home page;
 * its two forms' words are form-content.ts's. The launch team edits words, claims, the brand and
 * the contact address here; the routes that are chunks of their own keep their words with them
 * (pages/login/content.ts, legal-content.ts, pages/me/content.ts), so the home page's first-load
 * script does not carry them. Strings quoted by the product spec (sections 2, 8 and 9) are
 * reproduced exactly.
 *
 * Words only, their types taken from the values (`as const`): the components that show them say
 * what they take. Only components (and api.ts, which only components import) import this module,
 * so an edit of it hot-updates just them in `npm run dev` (README "Development").
 */
import { BRAND_NAME } from "@shared/brand";
import { SPEC_CLAIMS, claimWords } from "@shared/claims";
import { SECTION_IDS } from "./routes";

/** The year of the footer's copyright line (a constant: the prerendered page must not vary). */
export const COPYRIGHT_YEAR = 2025;

/** Where visitors write to: shown on the privacy policy (spec §2 "Contact Us") and the contact section. */
export const contactEmail = "hello@homeworkhelper.app";

/**
 * The claims of spec §1 and §9, used wherever the copy states them. The sentences that state one
 * are worker/shared/claims.ts's (claimWords): the worker writes the current claims into the page
 * (settings CLAIM_LAUNCH, CLAIM_ACCURACY, CLAIM_RESPONSE_TIME; the live count from
 * CLAIM_STUDENTS_THRESHOLD on) and the components render them from the page (claims.ts). The
 * texts below are those sentences with the spec's claims, as the page is prerendered; an entry's
 * `claim` names the sentence that replaces it.
 */
export const claims = SPEC_CLAIMS;
const specWords = claimWords(SPEC_CLAIMS);

export const brand = {
  // Shared with the worker, which names the product in the e-mails it sends.
  name: BRAND_NAME,
  tagline: "Instant, step-by-step homework help that teaches you the why.",
} as const;

/** The browser tab's title per route (the home page's matches web/index.html). */
export const documentTitles = {
  home: `${brand.name}: coming soon`,
  privacyPolicy: `Privacy Policy | ${brand.name}`,
  termsOfService: `Terms of Service | ${brand.name}`,
  login: `Sign In | ${brand.name}`,
  me: `My place | ${brand.name}`,
} as const;

export const header = {
  /** The first link of every page, shown when focused: it moves focus to the page's content. */
  skipLink: "Skip to content",
  /** Accessible name of the brand link, which leads home. */
  homeLinkLabel: `${brand.name}: home`,
  loginLink: "Login",
  logoutButton: "Logout",
  /**
   * Read before the e-mail by screen readers in the header's link to "My place" (/#/me), so the
   * bare address makes sense and says where it goes.
   */
  myPlaceLink: "My place: signed in as",
  /** The header's own link to "My place" beside the phone menu's toggle when signed in (issue 22). */
  myPlace: "My place",
  /** Accessible name of the section navigation. */
  navLabel: "Sections",
  /** Accessible name of the small-screen menu button (its state is aria-expanded). */
  menuButton: "Menu",
  /** Buttons that scroll the home page to a section; focus goes to its heading, or (focus "email") its e-mail field. */
  sections: [
    { label: "Home", target: SECTION_IDS.hero },
    { label: "Join Waitlist", target: SECTION_IDS.hero, focus: "email" },
    { label: "Features", target: SECTION_IDS.features },
    { label: "How It Works", target: SECTION_IDS.howItWorks },
  ],
  /** The highlighted call to action at the end of the navigation. */
  cta: { label: "Get Early Access", target: SECTION_IDS.hero, focus: "email" },
} as const;

/**
 * What the /#/me route shows before its own code (web/src/pages/me, a chunk of its own) is in:
 * its heading and a loading line. The page's other words live with it (pages/me/content.ts).
 */
export const myPlaceShell = {
  title: "My place",
  loading: "Loading your place…",
} as const;

/** A page whose code is a chunk of its own could not be loaded (offline, or a deploy replaced the files). */
export const pageLoad = {
  failed: "This page could not be loaded. Check your connection and try again.",
  retry: "Try again",
} as const;

export const hero = {
  eyebrow: "Coming soon: AI homework help for students",
  /** The headline is `headline` with `headlineAccent` (its ending) highlighted. */
  headline: "Your Homework, Solved in Seconds",
  headlineAccent: "Solved in Seconds",
  intro: specWords.heroIntro,
  /** Accessible name of the badge list. */
  badgesLabel: "At a glance",
  badges: [
    { icon: "rocket", text: specWords.launchBadge, claim: "launchBadge" },
    { icon: "gift", text: "Free for students" },
    { icon: "badge-check", text: "No subscriptions" },
  ],
} as const;

export const demo = {
  /** The title bar of the demo window, and what kind of demo this is. */
  title: `${brand.name} AI`,
  subtitle: "Live demo",
  /** Read by screen readers instead of the animation, before the finished solution. */
  description: "Example: how the AI explains a quadratic equation, step by step.",
  kindLabels: {
    question: "Question",
    thinking: "Thinking",
    step: "Step",
    calculation: "Calculation",
    solution: "Solution",
    result: "Result",
  },
  // Spec §2: six steps in this order: question, thinking, step, calculation, solution, result.
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
} as const;

export const features = {
  title: "Everything You Need to Ace Your Homework",
  intro: "Built for students who want answers they can follow, check and learn from.",
  items: [
    {
      icon: "zap",
      title: "Answers in Seconds",
      text: specWords.speedFeature,
      claim: "speedFeature",
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
} as const;

export const howItWorks = {
  title: "How It Works",
  intro: "From stuck to understood in three steps.",
  /** Read before each step's number, e.g. "Step 1". */
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
} as const;

export const advancedAi = {
  title: "Powered by Advanced AI",
  intro: "Our models are tuned for schoolwork: they show their reasoning, check their results and " + "explain each step at your level.",
  points: [
    "Understands handwritten and printed problems",
    "Explains the method, not only the final answer",
    "Double-checks every result before you see it",
  ],
  stats: [
    { value: specWords.accuracyStat, label: "Accuracy rate", claim: "accuracyStat" },
    { value: specWords.responseStat, label: "Response time", claim: "responseStat" },
    // Left out (the whole item) while the confirmed count is below CLAIM_STUDENTS_THRESHOLD.
    { value: specWords.studentsStat, label: "Students waiting", claim: "studentsStat", line: "studentsLine" },
  ],
} as const;

export const subjects = {
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
} as const;

export const contactSection = {
  title: "Get in Touch",
  intro: "Questions about the launch, schools or partnerships? Send us a message and we'll reply.",
  /** Followed by the contact e-mail as a link. */
  emailPrompt: "Prefer email? Write to",
} as const;

export const closingCta = {
  title: "Be the First to Try It",
  intro: specWords.ctaIntro,
  introClaim: "ctaIntro",
} as const;

export const footer = {
  tagline: brand.tagline,
  linksLabel: "Legal",
  privacyLink: "Privacy Policy",
  termsLink: "Terms of Service",
  copyright: `© ${COPYRIGHT_YEAR} ${brand.name}. All rights reserved.`,
} as const;

export const noScript = {
  /** Accessible name of the note's landmark (components/NoScriptNote.tsx). */
  label: "JavaScript is off",
  /** Shown only when the browser runs no JavaScript. */
  signIn: "JavaScript is turned off in this browser, and signing in needs it. You can still join the waitlist and send us a message.",
} as const;
