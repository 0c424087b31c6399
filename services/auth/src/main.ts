import { runService, TOPICS, topicName } from "@crafter/kit";
import { configSchema } from "./config";
import { routes } from "./rpc/routes";
import { ApiKeyRepository } from "./store/api-key.repository";
import { loadKeyRing } from "./store/key-ring";
import { RefreshTokenRepository } from "./store/refresh-token.repository";
import { SigningKeyRepository } from "./store/signing-key.repository";
import { OneTimeTokenRepository } from "./store/token.repository";
import { UserRepository } from "./store/user.repository";
import type { AuthDeps } from "./usecases/deps";

const SWEEP_EVERY_MS = 10 * 60 * 1000;

await runService({
  name: "auth",
  configSchema,
  // Every auth RPC runs before a session exists.
  authenticate: false,
  async setup({ config, logger, mongo, redis, relay }) {
    const users = new UserRepository(mongo);
    const oneTimeTokens = new OneTimeTokenRepository(mongo);
    const refreshTokens = new RefreshTokenRepository(mongo);
    const keys = await loadKeyRing(new SigningKeyRepository(mongo), config.JWT_PRIVATE_JWK);
    const userTopic = topicName(config.CRAFTER_NAMESPACE, TOPICS.authUser);
    const deps: AuthDeps = {
      config,
      logger,
      redis,
      users,
      oneTimeTokens,
      refreshTokens,
      apiKeys: new ApiKeyRepository(mongo),
      keys,
      userTopic,
      kickOutbox: () => relay()?.kick(),
      now: () => new Date(),
    };
    const sweeper = setInterval(() => {
      const now = new Date();
      const lifetime = config.REFRESH_TOKEN_TTL_S * 1000;
      Promise.all([
        oneTimeTokens.sweep(now, lifetime),
        refreshTokens.sweep(now, lifetime),
        users.sweepExpired(now, config.UNVERIFIED_ACCOUNT_TTL_S * 1000),
      ])
        .then(([tokens, refresh, accounts]) =>
          logger.debug({ tokens, refresh, accounts }, "swept expired tokens and unverified accounts"),
        )
        .catch((error) => logger.error({ err: error }, "token sweep failed"));
    }, SWEEP_EVERY_MS);
    sweeper.unref();
    return {
      routes: routes(deps),
      outbox: [users.model],
      publishes: [userTopic],
      onStop: async () => clearInterval(sweeper),
    };
  },
});
