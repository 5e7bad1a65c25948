/**
 * The words of the sign-in page (/#/login). They live with the page, not in ../../content.ts,
 * because the page is a chunk of its own (../route-chunks.tsx): the home page's first-load
 * script does not carry them. Words only, their types taken from the values (`as const`).
 */
import { CODE_LENGTH } from "@shared/sign-in";

export const login = {
  emailStep: {
    title: "Sign In",
    intro: `Enter your email address and we'll send you a ${CODE_LENGTH}-digit code.`,
    submit: "Send Code",
  },
  codeStep: {
    title: "Verify Code",
    intro: (email: string) => `A ${CODE_LENGTH}-digit code was sent to ${email}.`,
    submit: "Verify Code",
  },
  emailLabel: "Email address",
  emailPlaceholder: "you@example.com",
  codeLabel: "Verification code",
  codePlaceholder: "000000",
  sending: "Sending...",
  verifying: "Verifying...",
  resend: "Resend code or change email",
  /** Step two's own way to have a new code sent to the same address, without leaving the step. */
  sendNewCode: "Send a new code",
  /** Under the send button while a rate limit runs; `wait` comes from `waitFor`. */
  newCodeCountdown: (wait: string) => `You can ask for a new code in ${wait}.`,
  /** A wait in words a student reads at a glance: seconds up to 90, then minutes, then hours. */
  waitFor: (seconds: number) => {
    const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
    if (seconds <= 90) return count(Math.max(1, Math.ceil(seconds)), "second");
    if (seconds <= 90 * 60) return count(Math.ceil(seconds / 60), "minute");
    return count(Math.ceil(seconds / 3600), "hour");
  },
  backToHome: "Back to Home",
  /** /login while signed in: who is signed in and a Logout button instead of the form. */
  signedInView: {
    title: "Already signed in",
    text: (email: string) => `You're signed in as ${email}.`,
    logout: "Logout",
  },
  messages: {
    emailRequired: "Please enter your email address.",
    /** The address fails the waitlist's e-mail rule (checked before sending), or the server's. */
    emailInvalid: "That doesn't look like an email address. Please check it (it should look like name@example.com).",
    codeRequired: "Please enter the verification code.",
    /** Fewer digits than the code has: nothing is sent, so no guess is spent on it. */
    codeIncomplete: `Please enter all ${CODE_LENGTH} digits of the code.`,
    codeSent: "Verification code sent to your email!",
    codeRequestFailed: "Failed to send verification code. Please try again.",
    verificationFailed: "Invalid verification code. Please try again.",
    signedIn: "Successfully logged in! Redirecting...",
    /** The code is wrong, expired, used, or has had too many guesses (otp_expired). */
    codeRejected: "That code is wrong or has expired. Check the newest email from us, or ask for a new code.",
    /** A code went to this address a moment ago (over_email_send_rate_limit): use it or wait. */
    codeAlreadySent:
      "We already sent a code to this address. Enter the newest code from your email, or ask for a new one when the countdown ends.",
    /**
     * Too many code requests from this client (over_request_rate_limit on /otp); a countdown
     * follows. The client is the network's address, which a whole school shares, so the words
     * never say the visitor asked for them.
     */
    tooManyCodeRequests: "A lot of codes have been asked for from this network just now. Please wait a little.",
    /** Too many verifications from this client, that is this network (over_request_rate_limit on /verify). */
    tooManyAttempts: (wait: string) => `Too many tries from this network. Please wait ${wait} and try again.`,
    loggedOut: "You're logged out. You can sign in again below.",
    logoutFailed: "Logging out didn't work. Please check your connection and try again.",
  },
} as const;
