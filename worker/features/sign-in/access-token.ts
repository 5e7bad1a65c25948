import { errors, jwtVerify, SignJWT } from "jose";
import { badJwt } from "./errors";

/**
 * Access tokens: HS256 JWTs signed with AUTH_JWT_SECRET through `jose`, with GoTrue's claims,
 * so @supabase/auth-js (and anything else that reads Supabase tokens) understands them.
 */

export const AUDIENCE = "authenticated";
export const ROLE = "authenticated";

export type AccessTokenInput = {
  issuer: string;
  userId: string;
  email: string;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  sessionId: string;
  /** When the session was created by verifying a code (the `amr` timestamp). */
  signedInAt: Date;
  now: Date;
  ttlSeconds: number;
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const keyOf = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(secret: string, input: AccessTokenInput): Promise<{ token: string; expiresAt: number }> {
  const iat = seconds(input.now);
  const exp = iat + input.ttlSeconds;
  const token = await new SignJWT({
    email: input.email,
    phone: "",
    app_metadata: input.appMetadata,
    user_metadata: input.userMetadata,
    role: ROLE,
    aal: "aal1",
    amr: [{ method: "otp", timestamp: seconds(input.signedInAt) }],
    session_id: input.sessionId,
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(input.issuer)
    .setSubject(input.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(keyOf(secret));
  return { token, expiresAt: exp };
}

/** Three non-empty base64url parts: anything else is rejected before any cryptography. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Checks the signature (HS256 only), issuer, audience and expiry at `now`, and that the claims
 * this service relies on are present. Throws bad_jwt (403) with the reason otherwise.
 */
export async function verifyAccessToken(
  secret: string,
  token: string,
  expected: { issuer: string; now: Date },
): Promise<{ userId: string; sessionId: string }> {
  if (!JWT_SHAPE.test(token)) throw badJwt("token is malformed: it must be three base64url parts");
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ["HS256"],
      issuer: expected.issuer,
      audience: AUDIENCE,
      currentDate: expected.now,
      requiredClaims: ["exp", "sub", "session_id"],
    }));
  } catch (error) {
    throw badJwt(describeJoseError(error));
  }
  const { sub, session_id: sessionId } = payload;
  if (typeof sub !== "string" || typeof sessionId !== "string")
    throw badJwt("token has invalid claims: sub and session_id must be strings");
  return { userId: sub, sessionId };
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "token has invalid claims: token is expired";
  if (error instanceof errors.JWTClaimValidationFailed) return `token has invalid claims: ${error.message}`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return "signature is invalid";
  if (error instanceof errors.JOSEAlgNotAllowed) return "signing method is not allowed";
  return "token is malformed";
}
