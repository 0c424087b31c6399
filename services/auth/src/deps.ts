import type { Logger, Redis } from "@crafter/kit";
import type { GoogleOidc } from "./clients/google-oidc";
import type { Config } from "./config";
import type { UserEvents } from "./events/publishers";
import type { AuthStores } from "./store";
import type { KeyRing } from "./store/key-ring";

/** What the auth use cases need; built once in main.ts. */
export interface AuthDeps {
  config: Config;
  logger: Logger;
  redis: Redis;
  stores: AuthStores;
  keys: KeyRing;
  /** Builders of the user events (`<ns>.auth.user.v1`). */
  events: UserEvents;
  /** Wakes the outbox relay after a write that pushed an event. */
  kick: () => void;
  now: () => Date;
  /** Google sign-in (OpenID Connect); undefined when this server has no Google client. */
  google?: GoogleOidc;
}
