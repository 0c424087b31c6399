/**
 * The integrations a project can connect (spec section 1) and, for those that connect by OAuth 2.0,
 * how: pure data, plus the pure reading of their client credentials from the environment. A new
 * provider is one entry here and its paths in the tests' local OAuth server
 * (packages/provider-fakes/src/oauth-server.ts).
 */
import type { FlagName } from "./flags";

/** Every integration of spec section 1, in the order Settings › Integrations lists them. */
export const PROVIDER_IDS = [
  "google",
  "google_business",
  "meta",
  "tiktok",
  "shopify",
  "sendgrid",
  "zapier",
  "custom_domain",
] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === "string" && (PROVIDER_IDS as readonly string[]).includes(value);
}

/**
 * How a provider's grant is revoked on Disconnect:
 * - `rfc7009`: POST the token to `revokeUrl` as `token=…` (Google, RFC 7009), client credentials in the body;
 * - `tiktok`: POST `client_key`, `client_secret` and `token` to `revokeUrl` (Login Kit v2);
 * - `meta`: `DELETE {revokeUrl}?access_token=…` (the Graph API's `/me/permissions`);
 * - `none`: the provider has no revocation; the tokens are only deleted here.
 */
export type Revocation = "rfc7009" | "tiktok" | "meta" | "none";

/** Where the connected account's id and name are read after the code exchange. */
export interface ProfileEndpoint {
  url: string;
  /** Dot paths into the JSON answer. */
  idPath: string;
  namePath: string;
  /** Sends the access token as `?access_token=` (Graph API) instead of `Authorization: Bearer`. */
  tokenInQuery?: boolean;
}

/** An OAuth 2.0 authorization-code provider, as its documentation describes it. */
export interface OAuthProvider {
  kind: "oauth2";
  id: ProviderId;
  /** What Settings › Integrations calls it. */
  title: string;
  /** The feature flag that shows it (services/account/src/domain/flags.ts). */
  flag: FlagName;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl?: string;
  revocation: Revocation;
  profile: ProfileEndpoint;
  defaultScopes: readonly string[];
  /** How scopes are joined in the authorize URL (TikTok: ","; RFC 6749: " "). */
  scopeSeparator: " " | ",";
  /** PKCE with S256 (RFC 7636) is sent and its verifier given at the token endpoint. */
  pkce: boolean;
  /** The authorize URL's name of the client id (TikTok: `client_key`). */
  clientIdParam: "client_id" | "client_key";
  /** Whether the provider issues refresh tokens (Meta's long-lived tokens are not refreshed). */
  refreshes: boolean;
  /**
   * `fb_exchange_token`: the code's short-lived user token (an hour or two) is exchanged at once for
   * a long-lived one (about 60 days) by `GET {tokenUrl}?grant_type=fb_exchange_token&…` (Meta's
   * "Get Long-Lived" guide), which is the one kept, so work scheduled hours ahead finds it valid.
   */
  longLivedExchange?: "fb_exchange_token";
  /** Parameters the authorize URL adds (Google: offline access, so a refresh token comes). */
  extraAuthorizeParams?: Readonly<Record<string, string>>;
  /** The prefix of its environment settings: `<envPrefix>_CLIENT_ID`, `_CLIENT_SECRET`, `_BASE_URL`. */
  envPrefix: string;
}

/** An integration that does not connect by OAuth 2.0 here (an API key, a domain, signed webhooks). */
export interface OtherProvider {
  kind: "api_key" | "domain" | "webhooks";
  id: ProviderId;
  title: string;
  flag: FlagName;
}

/**
 * Shopify's per-shop authorization code grant: the owner names the shop, whose own host serves the
 * authorize and token endpoints (`https://{shop}/admin/oauth/...`); the callback's query is signed
 * with the app's secret (`hmac`), the token is offline (it does not expire, no refresh), and the
 * store's changes come as signed webhooks (domain/shopify.ts).
 */
export interface ShopOAuthProvider {
  kind: "shop_oauth";
  id: ProviderId;
  title: string;
  flag: FlagName;
  /** Access scopes asked for (Shopify joins them with ","). */
  defaultScopes: readonly string[];
  /** `<PREFIX>_CLIENT_ID`, `_CLIENT_SECRET`, `_ADMIN_ORIGIN`, `_SHOP_SUFFIX`. */
  envPrefix: string;
}

export type Provider = OAuthProvider | OtherProvider | ShopOAuthProvider;

const GOOGLE_PROFILE: ProfileEndpoint = {
  url: "https://openidconnect.googleapis.com/v1/userinfo",
  idPath: "sub",
  namePath: "email",
};

const google = (id: ProviderId, title: string, flag: FlagName, scopes: string[], envPrefix: string): OAuthProvider => ({
  kind: "oauth2",
  id,
  title,
  flag,
  authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenUrl: "https://oauth2.googleapis.com/token",
  revokeUrl: "https://oauth2.googleapis.com/revoke",
  revocation: "rfc7009",
  profile: GOOGLE_PROFILE,
  defaultScopes: scopes,
  scopeSeparator: " ",
  pkce: true,
  clientIdParam: "client_id",
  refreshes: true,
  // offline: a refresh token; consent: Google sends it again on a reconnect.
  extraAuthorizeParams: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
  envPrefix,
});

/** Every integration, by id. */
export const PROVIDERS: Readonly<Record<ProviderId, Provider>> = {
  google: google("google", "Google", "google_integration", ["openid", "email", "profile"], "GOOGLE"),
  google_business: google(
    "google_business",
    "Google Business Profile",
    "google_business_integration",
    ["openid", "email", "https://www.googleapis.com/auth/business.manage"],
    "GOOGLE_BUSINESS",
  ),
  meta: {
    kind: "oauth2",
    id: "meta",
    title: "Meta (Facebook Pages and Instagram)",
    flag: "meta_integration",
    authorizeUrl: "https://www.facebook.com/v21.0/dialog/oauth",
    tokenUrl: "https://graph.facebook.com/v21.0/oauth/access_token",
    revokeUrl: "https://graph.facebook.com/v21.0/me/permissions",
    revocation: "meta",
    profile: {
      url: "https://graph.facebook.com/v21.0/me?fields=id,name",
      idPath: "id",
      namePath: "name",
      tokenInQuery: true,
    },
    defaultScopes: [
      "pages_show_list",
      "pages_read_engagement",
      "pages_manage_posts",
      "instagram_basic",
      "instagram_content_publish",
      "business_management",
    ],
    scopeSeparator: ",",
    // Facebook Login's manual web flow documents no code_challenge; the signed state still binds the callback.
    pkce: false,
    clientIdParam: "client_id",
    refreshes: false,
    longLivedExchange: "fb_exchange_token",
    envPrefix: "META",
  },
  tiktok: {
    kind: "oauth2",
    id: "tiktok",
    title: "TikTok",
    flag: "tiktok_integration",
    authorizeUrl: "https://www.tiktok.com/v2/auth/authorize/",
    tokenUrl: "https://open.tiktokapis.com/v2/oauth/token/",
    revokeUrl: "https://open.tiktokapis.com/v2/oauth/revoke/",
    revocation: "tiktok",
    profile: {
      url: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,display_name",
      idPath: "data.user.open_id",
      namePath: "data.user.display_name",
    },
    // video.list: before an attempt whose outcome is unknown is retried, the creator's posts are searched.
    defaultScopes: ["user.info.basic", "video.publish", "video.upload", "video.list"],
    scopeSeparator: ",",
    // Login Kit for Web takes no code_verifier (only its desktop and mobile kits do).
    pkce: false,
    clientIdParam: "client_key",
    refreshes: true,
    envPrefix: "TIKTOK",
  },
  shopify: {
    kind: "shop_oauth",
    id: "shopify",
    title: "Shopify store",
    flag: "shopify_integration",
    defaultScopes: ["read_products", "read_customers"],
    envPrefix: "SHOPIFY",
  },
  sendgrid: { kind: "api_key", id: "sendgrid", title: "SendGrid", flag: "sendgrid_integration" },
  zapier: { kind: "webhooks", id: "zapier", title: "Zapier", flag: "zapier_integration" },
  custom_domain: { kind: "domain", id: "custom_domain", title: "Custom domain", flag: "custom_domain_integration" },
};

/** A provider's client on this server, from `<PREFIX>_CLIENT_ID` / `_CLIENT_SECRET`. */
export interface ProviderClient {
  clientId: string;
  clientSecret: string;
}

/** The OAuth providers as this server runs them: their URLs (rebased for tests) and client, if configured. */
export interface ConfiguredProvider extends OAuthProvider {
  /** Undefined: "not configured on this server". */
  client?: ProviderClient;
}

/** Replaces a URL's origin with `base`'s, keeping its path and query (a test's local provider). */
function rebase(url: string, base: string | undefined): string {
  if (!base) return url;
  const target = new URL(url);
  const origin = new URL(base);
  return new URL(`${target.pathname}${target.search}`, origin).toString();
}

/**
 * The OAuth providers with their clients from `env`: `<PREFIX>_CLIENT_ID` and `<PREFIX>_CLIENT_SECRET`
 * (both, non-empty, or the provider is not configured), and `<PREFIX>_BASE_URL`, which moves every
 * URL of the provider to that origin (the tests' local server).
 */
export function configuredProviders(
  env: Readonly<Record<string, string | undefined>>,
): ReadonlyMap<ProviderId, ConfiguredProvider> {
  const out = new Map<ProviderId, ConfiguredProvider>();
  for (const provider of Object.values(PROVIDERS)) {
    if (provider.kind !== "oauth2") continue;
    const base = env[`${provider.envPrefix}_BASE_URL`]?.trim() || undefined;
    const clientId = env[`${provider.envPrefix}_CLIENT_ID`]?.trim();
    const clientSecret = env[`${provider.envPrefix}_CLIENT_SECRET`]?.trim();
    out.set(provider.id, {
      ...provider,
      authorizeUrl: rebase(provider.authorizeUrl, base),
      tokenUrl: rebase(provider.tokenUrl, base),
      ...(provider.revokeUrl ? { revokeUrl: rebase(provider.revokeUrl, base) } : {}),
      profile: { ...provider.profile, url: rebase(provider.profile.url, base) },
      ...(clientId && clientSecret ? { client: { clientId, clientSecret } } : {}),
    });
  }
  return out;
}

/** Every environment setting the OAuth 2.0 providers read, for the config schema. */
export function providerEnvNames(): string[] {
  return Object.values(PROVIDERS).flatMap((provider) =>
    provider.kind === "oauth2"
      ? ["_CLIENT_ID", "_CLIENT_SECRET", "_BASE_URL"].map((suffix) => `${provider.envPrefix}${suffix}`)
      : [],
  );
}

/** The Shopify app as this server runs it. */
export interface ShopifyApp {
  clientId: string;
  clientSecret: string;
  /** Origin template of a shop's admin: `https://{shop}` (a test's local store: `http://{shop}:<port>`). */
  adminOrigin: string;
  /** The shops' domain suffix: `myshopify.com` (tests: `myshopify.crafter.test`). */
  shopSuffix: string;
  scopes: readonly string[];
}

/**
 * The Shopify app from `SHOPIFY_CLIENT_ID` and `SHOPIFY_CLIENT_SECRET` (both, or it is not
 * configured), `SHOPIFY_ADMIN_ORIGIN` and `SHOPIFY_SHOP_SUFFIX`.
 */
export function configuredShopify(env: Readonly<Record<string, string | undefined>>): ShopifyApp | undefined {
  const clientId = env.SHOPIFY_CLIENT_ID?.trim();
  const clientSecret = env.SHOPIFY_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) return undefined;
  const provider = PROVIDERS.shopify as ShopOAuthProvider;
  return {
    clientId,
    clientSecret,
    adminOrigin: env.SHOPIFY_ADMIN_ORIGIN?.trim() || "https://{shop}",
    shopSuffix: env.SHOPIFY_SHOP_SUFFIX?.trim() || "myshopify.com",
    scopes: provider.defaultScopes,
  };
}
