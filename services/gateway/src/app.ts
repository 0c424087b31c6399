import { type AccessTokenVerifier, errorInterceptor, type Redis } from "@crafter/kit";
import cookieParser from "cookie-parser";
import cors from "cors";
import express, { type Express, Router } from "express";
import type { Logger } from "pino";
import { bumpViewsOnWrite, UserViewCache } from "./cache/user-views";
import type { Clients } from "./clients";
import type { Config } from "./config";
import { actingResolver, DelegationCache } from "./http/acting";
import { csvBody, formBody, jsonBody, whenBody } from "./http/body";
import { csrfGuard } from "./http/csrf";
import { customDomainHosts } from "./http/custom-domains";
import { errorHandler } from "./http/envelope";
import { Idempotency } from "./http/idempotency";
import { openApiDocument } from "./http/openapi";
import { publishedPages } from "./http/published-pages";
import { readAhead } from "./http/read-ahead";
import { apiReference } from "./http/reference";
import { API_CONTENT_TYPES, crossOriginMatcher, mountRoutes } from "./http/registry";
import { requestGuard } from "./http/request-guard";
import { securityHeaders } from "./http/security";
import { dashboard } from "./http/static";
import { testCheckoutPage, testCheckoutPay } from "./http/test-checkout";
import { allRoutes } from "./routes";
import { mediaFiles, publicMediaFiles } from "./routes/media-files";
import { clickRedirect, openPixel } from "./routes/tracking.routes";
import { connectMiddleware } from "./rpc/frames";
import { streamRoutes } from "./rpc/stream-proxy";

/** The largest /rpc request message (bytes), as /api's JSON bodies. */
const RPC_MESSAGE_LIMIT = 1024 * 1024;

/** The gateway's Express app: /auth, /api (with /api/openapi.json and /api/reference), /rpc and the dashboard. */
export function createApp(
  config: Config,
  clients: Clients,
  verify: AccessTokenVerifier,
  redis: Redis,
  logger: Logger,
): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  app.set("etag", false);

  const origins = [config.PUBLIC_ORIGIN, ...config.EXTRA_ORIGINS];
  const cookies = { secure: config.COOKIE_SECURE };
  // The per-user read cache of /api (cache/user-views.ts); writes through /api and /rpc make it stale.
  const views = new UserViewCache(redis, logger);
  // Team members' delegated tokens, per (member, project), in this process only.
  const delegations = new DelegationCache({
    maxAgeMs: config.DELEGATION_CACHE_MS,
    marginMs: 60_000,
    maxEntries: 10_000,
  });
  const acting = actingResolver(clients, delegations);
  const routes = allRoutes({
    clients,
    verify,
    cookies,
    views,
    publicOrigin: config.PUBLIC_ORIGIN,
    redis,
    acting,
    delegations,
  });
  const crossOrigin = crossOriginMatcher(routes);
  let document: unknown;
  const openapi = () => {
    document ??= openApiDocument(routes, config.PUBLIC_ORIGIN);
    return document;
  };

  app.use(securityHeaders());
  // What a request is, by its Host: a business's verified custom domain serves only its pages and
  // lead form; the deployment's own hosts go on to everything below.
  app.use(
    customDomainHosts({
      clients,
      platformHosts: origins.map((origin) => new URL(origin).hostname),
      origin: config.PUBLIC_ORIGIN,
      logger,
    }),
  );
  // Control characters in the path or query, methods and OPTIONS, 401 before CSRF: for every route, here.
  app.use(requestGuard(routes, crossOrigin));
  app.use(["/api", "/rpc"], bumpViewsOnWrite(redis, logger));
  // The cached views' reads: the denylist and the view version in one Redis round trip.
  app.use(readAhead(redis, ["/api/user/account", "/api/app/initial"]));
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });

  // One app layer (see /api below). Express strips the "/rpc" mount path, so the middleware sees
  // service paths from the root.
  const rpc = Router();
  rpc.use(
    "/",
    csrfGuard(origins, [
      "application/connect+json",
      "application/connect+proto",
      "application/json",
      "application/proto",
    ]),
    connectMiddleware(
      { routes: streamRoutes(clients, verify, acting), interceptors: [errorInterceptor()], limit: RPC_MESSAGE_LIMIT },
      logger,
    ),
  );
  app.use("/rpc", rpc);

  const noStore: express.RequestHandler = (_req, res, next) => {
    res.setHeader("cache-control", "no-store");
    next();
  };
  // CORS only for the public routes other sites call (registry `crossOrigin`): any origin, no
  // credentials (the widget and forms send no cookie), preflights answered here.
  const publicCors = cors({
    origin: "*",
    methods: ["GET", "POST", "PUT"],
    // Idempotency-Key: a form's retry after a failure is the same submission.
    allowedHeaders: ["content-type", "idempotency-key"],
    maxAge: 600,
  });
  const mountDeps = { verify, clients, idempotency: new Idempotency(redis), acting };
  // Each mount is one layer of the app, its middleware a router of its own: a request walks only
  // its own mount's chain, and "/" layers skip the path match (router's fast path). Each `use` names
  // "/": for a middleware with no path, the OpenTelemetry Express instrumentation drops the last
  // stored segment of the route (here "/api"), and spans and metrics lose their http.route.
  const api = Router();
  api.use("/", apiReference(openapi));
  api.use("/public", (req, res, next) => (crossOrigin(req) ? publicCors(req, res, next) : next()));
  api.use("/", noStore);
  // Routes that read their raw body and authenticate it themselves (Stripe's signed webhooks) come
  // before the CSRF check and the JSON parser.
  api.use("/", mountRoutes("/api", routes, mountDeps, { raw: true }));
  // /api also takes multipart and octet-stream uploads (media) and a raw text/csv body (the
  // contacts import); each route then accepts only its own type (registry.ts).
  api.use("/", csrfGuard(origins, API_CONTENT_TYPES, crossOrigin), whenBody(...jsonBody(), ...csvBody(), formBody()));
  api.use("/", mountRoutes("/api", routes, mountDeps));
  // Only /auth reads cookies by name (the refresh cookie); /api's session reads its one cookie itself.
  const auth = Router();
  auth.use(
    "/",
    noStore,
    csrfGuard(origins),
    cookieParser(),
    whenBody(...jsonBody()),
    mountRoutes("/auth", routes, mountDeps),
  );
  app.use("/api", api);
  app.use("/auth", auth);
  // Published media (a business logo): a lasting public URL, before the signed files' wildcard.
  app.get("/media/public/:id", publicMediaFiles(clients));
  // Signed, expiring media URLs (`/media/<key>?exp&sig`): no session, the signature is the key.
  app.get("/media/*key", mediaFiles(clients));
  // Email tracking: the open pixel and signed click redirects, no session.
  app.get("/t/o/:file", openPixel(clients));
  app.get("/t/c/:token", clickRedirect(clients));
  // The local test checkout (billing on stripe-mock, which hosts no payment page): a page and its
  // Pay form, no session (the checkout id is the secret); Pay delivers Stripe's webhooks to /api.
  const selfHost = ["0.0.0.0", "::", ""].includes(config.HOST) ? "127.0.0.1" : config.HOST;
  const checkoutDeps = {
    payments: clients.paymentsAsGateway,
    webhookUrl: `http://${selfHost.includes(":") ? `[${selfHost}]` : selfHost}:${config.PORT}/api/billing/webhook`,
    home: "/app/settings/subscription",
    logger,
  };
  app.get("/checkout/test/:id", testCheckoutPage(checkoutDeps));
  app.post(
    "/checkout/test/:id",
    noStore,
    csrfGuard(origins, ["application/x-www-form-urlencoded"]),
    express.urlencoded({ extended: false, limit: "1kb", parameterLimit: 5 }),
    testCheckoutPay(checkoutDeps),
  );
  // Pages published from crafts at `/<slug>`; other paths go on to the dashboard.
  app.get("/:slug", publishedPages(clients, config.WEB_DIST, config.PUBLIC_ORIGIN, logger));
  app.use(dashboard(config.WEB_DIST));
  app.use(errorHandler(logger));
  return app;
}
