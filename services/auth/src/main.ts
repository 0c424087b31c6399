import { providerHttp, runService } from "@crafter/kit";
import { googleOidc } from "./clients/google-oidc";
import { configSchema } from "./config";
import type { AuthDeps } from "./deps";
import { UserEvents } from "./events/publishers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { loadKeyRing } from "./store/key-ring";

const SWEEP_EVERY_MS = 10 * 60 * 1000;

await runService({
  name: "auth",
  configSchema,
  async setup({ config, logger, mongo, redis, kick }) {
    const stores = await createStores(mongo);
    const keys = await loadKeyRing(stores.signingKeys, config.JWT_PRIVATE_JWK);
    const events = new UserEvents(config.CRAFTER_NAMESPACE);
    const google =
      config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
        ? googleOidc({
            issuer: config.GOOGLE_OIDC_ISSUER,
            clientId: config.GOOGLE_CLIENT_ID,
            clientSecret: config.GOOGLE_CLIENT_SECRET,
            redirectUri: new URL("/auth/google/callback", config.PUBLIC_ORIGIN).toString(),
            http: providerHttp({ timeoutMs: config.GOOGLE_TIMEOUT_MS, pins: config.INTEGRATIONS_RESOLVE }),
          })
        : undefined;
    const deps: AuthDeps = {
      config,
      logger,
      redis,
      stores,
      keys,
      events,
      kick,
      now: () => new Date(),
      ...(google ? { google } : {}),
    };
    const sweeper = setInterval(() => {
      const now = new Date();
      const lifetime = config.REFRESH_TOKEN_TTL_S * 1000;
      Promise.all([
        stores.oneTimeTokens.sweep(now, lifetime),
        stores.refreshTokens.sweep(now, lifetime),
        stores.sessions.sweep(new Date(now.getTime() - lifetime)),
        stores.users.sweepExpired(now, config.UNVERIFIED_ACCOUNT_TTL_S * 1000),
      ])
        .then(([tokens, refresh, , accounts]) =>
          logger.debug({ tokens, refresh, accounts }, "swept expired tokens and unverified accounts"),
        )
        .catch((error) => logger.error({ err: error }, "token sweep failed"));
    }, SWEEP_EVERY_MS);
    sweeper.unref();
    return {
      routes: routes(deps),
      access,
      // Auth verifies with its own key ring instead of calling itself.
      jwks: async () => keys.jwks,
      outbox: stores.outbox,
      publishes: [events.topic],
      onStop: async () => clearInterval(sweeper),
    };
  },
});
