import type { Logger, Redis } from "@crafter/kit";
import type { Config } from "../config";
import type { ApiKeyRepository } from "../store/api-key.repository";
import type { KeyRing } from "../store/key-ring";
import type { RefreshTokenRepository } from "../store/refresh-token.repository";
import type { OneTimeTokenRepository } from "../store/token.repository";
import type { UserRepository } from "../store/user.repository";

/** What the auth use cases need; built once in main.ts. */
export interface AuthDeps {
  config: Config;
  logger: Logger;
  redis: Redis;
  users: UserRepository;
  oneTimeTokens: OneTimeTokenRepository;
  refreshTokens: RefreshTokenRepository;
  apiKeys: ApiKeyRepository;
  keys: KeyRing;
  /** The topic of user events (`<ns>.auth.user.v1`). */
  userTopic: string;
  /** Wakes the outbox relay after a write that pushed an event. */
  kickOutbox: () => void;
  now: () => Date;
}
