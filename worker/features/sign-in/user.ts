import type { AuthUser } from "../../platform/db/schema";
import { AUDIENCE, ROLE } from "./access-token";

/** Every user signs in with an e-mail code: GoTrue's app_metadata for the e-mail provider. */
export const APP_METADATA = { provider: "email", providers: ["email"] } as const;

/** The user as GoTrue answers it (GET /user, the session's `user`, the admin routes). */
export function userJson(user: AuthUser) {
  return {
    id: user.id,
    aud: AUDIENCE,
    role: ROLE,
    email: user.email,
    email_confirmed_at: user.emailConfirmedAt,
    phone: "",
    confirmed_at: user.emailConfirmedAt,
    last_sign_in_at: user.lastSignInAt,
    app_metadata: { ...APP_METADATA, providers: [...APP_METADATA.providers] },
    user_metadata: user.userMetadata,
    identities: [
      {
        // One e-mail identity per user; GoTrue's identity id for the e-mail provider is the user's id.
        identity_id: user.id,
        id: user.id,
        user_id: user.id,
        identity_data: { email: user.email, email_verified: user.emailConfirmedAt !== null, phone_verified: false, sub: user.id },
        provider: "email",
        last_sign_in_at: user.lastSignInAt,
        created_at: user.createdAt,
        updated_at: user.updatedAt,
        email: user.email,
      },
    ],
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    is_anonymous: false,
  };
}

export type UserJson = ReturnType<typeof userJson>;
