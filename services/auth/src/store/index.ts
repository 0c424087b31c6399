import type { OutboxModel } from "@crafter/kit";
import type { Connection } from "mongoose";
import { ApiKeyRepository } from "./api-key.repository";
import { IdentityRepository } from "./identity.repository";
import { RefreshTokenRepository } from "./refresh-token.repository";
import { SessionRepository } from "./session.repository";
import { SigningKeyRepository } from "./signing-key.repository";
import { OneTimeTokenRepository } from "./token.repository";
import { UserRepository } from "./user.repository";

/** Every repository of the auth service, over its own database. */
export interface AuthStores {
  users: UserRepository;
  oneTimeTokens: OneTimeTokenRepository;
  refreshTokens: RefreshTokenRepository;
  /** What each sign-in knew about its client (linked devices). */
  sessions: SessionRepository;
  signingKeys: SigningKeyRepository;
  apiKeys: ApiKeyRepository;
  /** Sign-in identities at providers (Google) linked to accounts. */
  identities: IdentityRepository;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: OutboxModel[];
}

export async function createStores(connection: Connection): Promise<AuthStores> {
  const users = new UserRepository(connection);
  return {
    users,
    oneTimeTokens: new OneTimeTokenRepository(connection),
    refreshTokens: new RefreshTokenRepository(connection),
    sessions: new SessionRepository(connection),
    signingKeys: new SigningKeyRepository(connection),
    apiKeys: new ApiKeyRepository(connection),
    identities: new IdentityRepository(connection),
    outbox: [users.model],
  };
}
