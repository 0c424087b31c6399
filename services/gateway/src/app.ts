import { expressConnectMiddleware } from "@connectrpc/connect-express";
import { type AccessTokenVerifier, appError, type Redis } from "@crafter/kit";
import cookieParser from "cookie-parser";
import express, { type Express } from "express";
import type { Logger } from "pino";
import { bumpViewsOnWrite, UserViewCache } from "./cache/user-views";
import type { Clients } from "./clients";
import type { Config } from "./config";
import { csrfGuard } from "./http/csrf";
import { errorHandler } from "./http/envelope";
import { dashboard } from "./http/static";
import { apiRoutes } from "./routes/api.routes";
import { authRoutes } from "./routes/auth.routes";
import { streamRoutes } from "./rpc/stream-proxy";

/** The gateway's Express app: /auth, /api, /rpc and the dashboard. */
export function createApp(
  config: Config,
  clients: Clients,
  verify: AccessTokenVerifier,
  logger: Logger,
  redis?: Redis,
): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  app.set("etag", false);

  const origins = [config.PUBLIC_ORIGIN, ...config.EXTRA_ORIGINS];
  const cookies = { secure: config.COOKIE_SECURE };

  // The per-user read cache of /api (cache/user-views.ts): writes through here make it stale.
  const views = redis ? new UserViewCache(redis, logger) : undefined;
  if (redis) app.use(["/api", "/rpc"], bumpViewsOnWrite(redis, logger));

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });

  app.use(
    "/rpc",
    csrfGuard(origins, [
      "application/connect+json",
      "application/connect+proto",
      "application/json",
      "application/proto",
    ]),
    // Express strips the "/rpc" mount path, so the middleware sees service paths from the root.
    expressConnectMiddleware({ routes: streamRoutes(clients, verify) }),
  );

  const json = express.json({ limit: "1mb" });
  const noStore: express.RequestHandler = (_req, res, next) => {
    res.setHeader("cache-control", "no-store");
    next();
  };
  app.use("/auth", noStore, csrfGuard(origins), cookieParser(), json, authRoutes(clients, verify, cookies));
  app.use("/api", noStore, csrfGuard(origins), cookieParser(), json, apiRoutes(clients, verify, views));
  app.use(["/api", "/auth"], () => {
    throw appError("NOT_FOUND", "No such API route.");
  });
  app.use(dashboard(config.WEB_DIST));
  app.use(errorHandler(logger));
  return app;
}
