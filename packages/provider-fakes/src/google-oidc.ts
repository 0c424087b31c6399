import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import Provider, { type Configuration } from "oidc-provider";

/**
 * A local OpenID provider standing in for Google sign-in: the npm `oidc-provider` (a certified
 * OpenID Connect implementation) configured as Google's issuer is, so the relying party discovers,
 * redirects, exchanges and verifies exactly as it does against https://accounts.google.com.
 *
 * Endpoints (oidc-provider's paths, read by the client from discovery, as Google's are):
 * - `GET /.well-known/openid-configuration`: discovery (issuer, endpoints, `code` response type,
 *   S256 only, RS256 ID tokens, `authorization_response_iss_parameter_supported`);
 * - `GET /auth`: authorization (code flow; PKCE required; `state` and `nonce` echoed);
 * - `GET /interaction/:uid`: the "Google account chooser": signs in the account a test chose with
 *   `signInAs` (or refuses with `error=access_denied` after `deny()`), with no page shown; after
 *   `showLoginForm()`, a sign-in page instead (for browser tests): `POST /interaction/:uid` with the
 *   `email` typed signs in the account added with that email (`addAccount`), or shows the page again
 *   with "Couldn't find your Google Account"; `cancel` declines (`error=access_denied`);
 * - `POST /token`: the code exchange (client_secret_basic; code single use, PKCE verifier checked);
 * - `GET /jwks`: the RS256 signing key (a fixed test key);
 * - `GET /me`: userinfo.
 * The ID token carries `sub`, `email`, `email_verified` and `name` as Google's does.
 */
/**
 * The provider's RS256 signing key: a fixed test key, so a relying party that cached the key set
 * (as it caches Google's) verifies the ID tokens of every start of this server. Never a real key.
 */
const SIGNING_KEY = {
  kty: "RSA",
  n: "slAJ25GE4i9U-UJ5p1RnJ4tvYpVOF6qP7jcI0XBD0pzMHWHv6CEUZOj4g9ruZNef5WqWOwOVvmuy_I42qWmUFENSnLokM09pvJnlFNjiR2zeodimy5r-qyczjysyuH9dVg-IuO198wAMQdjgVXGewY6w1H0eOvqK9mcfPcZ50zS3_WnLipTGI0GK9mcQlDIbXVlV9kLHksnF5RxsZ-3daYnSY5rgQQQyGn4PNifyrGaa94I2Djli3iKI9ZEbqcsuB6ljqFCkf6oLmm2R37ITminJvfuO2DPLOQbwXWSipoOwyduGFerutISzYawalZQ8rr0Tzs-42FAKwCXt2ekyzw",
  e: "AQAB",
  d: "MTkmF35K1BOj3fFLWvVSSpjTxT-ZILBdbjG0FfjrSBsvv5a3HvnuwtKLM_7-W0ko4zByy1S4hCn_7XcmwMqb7aIODqTV9HIiKsXC9ufOQ1Ba_wurM76UOdQnCAkxRbwnHGhKYl5xK-EiARVpDD1CyYTl7Kqjaz2Zmd6qwadmHvbSSo-L97RPj6Sz4mpIbByBxWjN9VGpX1dffbDQPwyDW35PlyvOXI6N5rb4BKAIEeNlrbkaoASTMnuJTLiGK2hHD0Ki1my-mDgQV6yVKguANH-URX945i-pNL7TuXrs0mMMGcl6oaCOIWQKMNiESGSF2XtxpOecScBbYRyihCA2UQ",
  p: "8eqv3oy3xkCXA3jgwn6F1AaZ7vPJqQvhkIPEFv0tQcQldiAvALXQa8PabbaKvNOAF_nu48XwOCjWK4DdwgUOBw0-7pw8Xc3kEFbYMihj336W0hAZSe5LLShyYsYnqrJ_8EgoHGCC0uQRsytCSOjM6_-pRnivMKfMeGxbCA-bv58",
  q: "vLFzz4b2Jd9diYFM5ks0W0q9dWYVGF8eu2Hy_0sPIuiagVvNxYQoFlODiOH6qcZQgrSwvfUQqzL4hxUW7WUOZYk9MjUZiF-fIYmD6iryR5tY4kEtiTqkbb_60VLpTsoC6QOif1X5dsB6a-erzp6m-nOy1d8HDTm1p5pL04Ee_tE",
  dp: "ySKgcL-8uDfRlxB0hyEc8ek_KR5Gh6eaNkZnzdlYPHrxzqH5knSYQlFHlbqU5WRP9x9VkMls7bR-RRNSzVLYk-JedZMu2asquK8L97__Mb4Vdbfu3roihPxBBoDMUC8zEjtcJiPUAbWgRcBszyPH5VveiPokZqbM6T7l_PDFRO8",
  dq: "kiUCpJ5MMUMSCDkcHVXsBDUcDjx1ZD3v6IPRmAdDfu8XE8_NzQgxoDEotDEKWsode06FgWq4cVB2CvG7ozxc7SlhO2zDDMu6zVfb0tdWdT2NlxeSNDI2Pkat9cg4qWxu2piVF_i30VD8wGxbthlNDLflsB4gMQ8cceZgijz8i7E",
  qi: "HcqAdTRHy5DIqGfBeOUn-Ddq67zq1bynbwIi3z2MXfIw2QlNYujtW8kC91Os0Y9EULGfHUqPlYR9QWOV4MhlOqy4TMaqACyWdwghaZ-bOFcCP7BgwH6lxcJBx8WfE4144ilMivMZgNSBNHziiyxyw4RHevC-IdVHktLA_6JDklQ",
  alg: "RS256",
  use: "sig",
  kid: "crafter-local-google-1",
};

export interface GoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface LocalGoogleOidcOptions {
  clientId: string;
  clientSecret: string;
  /** The relying party's callback (`<PUBLIC_ORIGIN>/auth/google/callback`). */
  redirectUris: string[];
  /** The issuer's host name (pinned to 127.0.0.1 by the services' INTEGRATIONS_RESOLVE). */
  host?: string;
}

export class LocalGoogleOidc {
  private server: Server | undefined;
  private provider: Provider | undefined;
  private readonly accounts = new Map<string, GoogleAccount>();
  private current: GoogleAccount | undefined;
  private denying = false;
  private loginForm = false;
  /** Authorizations answered with a code, and codes exchanged at the token endpoint (counters tests read). */
  readonly counts = { authorized: 0, tokens: 0 };
  issuer = "";

  constructor(private readonly options: LocalGoogleOidcOptions) {}

  /** The Google account the next sign-ins choose (until another is chosen). */
  signInAs(account: GoogleAccount): void {
    this.accounts.set(account.sub, account);
    this.current = account;
    this.denying = false;
  }

  /** The next sign-ins are declined by the person (`error=access_denied`). */
  deny(): void {
    this.denying = true;
  }

  /** A Google account the login form can sign in (by its email), without choosing it for the next sign-ins. */
  addAccount(account: GoogleAccount): void {
    this.accounts.set(account.sub, account);
  }

  /** Sign-ins show the provider's login form (a browser types the email) instead of choosing an account. */
  showLoginForm(on = true): void {
    this.loginForm = on;
  }

  async start(port: number): Promise<void> {
    this.issuer = `http://${this.options.host ?? "google-oidc.crafter.test"}:${port}`;
    const configuration: Configuration = {
      clients: [
        {
          client_id: this.options.clientId,
          client_secret: this.options.clientSecret,
          redirect_uris: this.options.redirectUris,
          response_types: ["code"],
          grant_types: ["authorization_code"],
          token_endpoint_auth_method: "client_secret_basic",
        },
      ],
      jwks: { keys: [SIGNING_KEY] },
      cookies: { keys: ["local-google-oidc-cookie-key"] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      // Google puts the scope's claims in the ID token itself.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx, id) => {
        const account = this.accounts.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          claims: async () => ({
            sub: account.sub,
            email: account.email,
            email_verified: account.email_verified,
            ...(account.name ? { name: account.name } : {}),
          }),
        };
      },
      // First-party: the person's consent is the test's choice; the grant is made at login.
      loadExistingGrant: async (ctx) => {
        const accountId = ctx.oidc.session?.accountId;
        const clientId = ctx.oidc.client?.clientId;
        if (!accountId || !clientId) return undefined;
        const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
        grant.addOIDCScope("openid email profile");
        await grant.save();
        return grant;
      },
      ttl: { Session: 60, Interaction: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    };
    const provider = new Provider(this.issuer, configuration);
    provider.on("authorization.success", () => {
      this.counts.authorized++;
    });
    provider.on("grant.success", () => {
      this.counts.tokens++;
    });
    this.provider = provider;
    const handle = provider.callback();
    this.server = createServer((req, res) => {
      if (req.url?.startsWith("/interaction/")) {
        this.interaction(req, res).catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
        return;
      }
      handle(req, res);
    });
    this.server.listen(port, "127.0.0.1");
    await once(this.server, "listening");
  }

  /** The chooser: finishes the login prompt as the chosen account, with no page (or through the login form). */
  private async interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const provider = this.provider;
    if (!provider) throw new Error("not started");
    await provider.interactionDetails(req, res);
    if (this.loginForm) return this.loginPage(req, res);
    const result =
      this.denying || !this.current
        ? { error: "access_denied", error_description: "The person declined." }
        : { login: { accountId: this.current.sub } };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  /** The login form: GET shows it; POST signs in the account with the typed email, or declines on `cancel`. */
  private async loginPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const provider = this.provider!;
    const page = (problem = "", email = "") => {
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
      });
      res.end(loginFormHtml(req.url ?? "/", problem, email));
    };
    if (req.method !== "POST") return page();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
    if (form.has("cancel")) {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The person declined." },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const email = (form.get("email") ?? "").trim().toLowerCase();
    const account = [...this.accounts.values()].find((candidate) => candidate.email.toLowerCase() === email);
    if (!account) return page(email ? "Couldn't find your Google Account" : "Enter an email", email);
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub } },
      { mergeWithLastSubmission: false },
    );
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, "close");
    this.server = undefined;
  }
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The local issuer's sign-in page (plain HTML, labelled fields, so a browser test fills it as a person would). */
function loginFormHtml(action: string, problem: string, email: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in - Google Accounts (local)</title></head>
<body style="font-family: Roboto, Arial, sans-serif; max-width: 420px; margin: 48px auto; padding: 0 16px">
<h1 style="font-weight: 400">Sign in</h1>
<p>to continue to Crafter</p>
<form method="post" action="${escapeHtml(action)}">
<label for="identifier">Email or phone</label><br>
<input id="identifier" name="email" type="email" autocomplete="username" autofocus value="${escapeHtml(email)}"
 style="width: 100%; padding: 8px; margin: 8px 0" aria-describedby="problem">
<p id="problem" role="alert" style="color: #d93025">${escapeHtml(problem)}</p>
<button type="submit" id="identifierNext">Next</button>
<button type="submit" name="cancel" value="1" formnovalidate>Cancel</button>
</form></body></html>`;
}
