import { providerHttp } from "@crafter/kit";
import { LocalTikTokServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import {
  authorizeUrl,
  isOAuthError,
  parseTokenAnswer,
  readPath,
  refusesGrant,
  tokenRequestBody,
} from "../src/domain/connections";
import { type ConfiguredProvider, configuredProviders } from "../src/domain/providers";

const pins = { "tiktok.crafter.test": "127.0.0.1" };
const http = providerHttp({ timeoutMs: 5000, pins, sleep: async () => {} });
const now = new Date();

/** TikTok's registry entry against the local TikTok: Login Kit v2 as the connect flow uses it. */
describe("TikTok Login Kit v2 against the local TikTok", () => {
  const tiktok = new LocalTikTokServer({ clientKey: "ck-test", clientSecret: "cs-test" });
  let provider: ConfiguredProvider;
  const client = { clientId: "ck-test", clientSecret: "cs-test" };
  const redirectUri = "http://localhost:8080/api/integrations/callback";

  beforeAll(async () => {
    const port = await tiktok.start();
    const configured = configuredProviders({
      TIKTOK_CLIENT_ID: client.clientId,
      TIKTOK_CLIENT_SECRET: client.clientSecret,
      TIKTOK_BASE_URL: `http://tiktok.crafter.test:${port}`,
    }).get("tiktok");
    if (!configured) throw new Error("tiktok is an OAuth provider");
    provider = configured;
  });
  afterAll(() => tiktok.stop());

  /** The browser's leg: the authorize URL, answered with a redirect back to us. */
  async function authorize(): Promise<URL> {
    const url = authorizeUrl(provider, { clientId: client.clientId, redirectUri, state: "st-1", verifier: "v" });
    const answer = await fetch(url.replace("tiktok.crafter.test", "127.0.0.1"), { redirect: "manual" });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get("location") ?? "");
  }

  it("connects: code, tokens, the creator's open_id and name; refreshes rotating; revokes", async () => {
    const back = await authorize();
    expect(back.searchParams.get("state")).toBe("st-1");
    expect(back.searchParams.get("scopes")).toBe("user.info.basic,video.publish,video.upload,video.list");
    const code = back.searchParams.get("code") ?? "";
    const exchange = () =>
      http.call(provider.tokenUrl, {
        method: "POST",
        form: tokenRequestBody(provider, client, { type: "authorization_code", code, redirectUri, verifier: "v" }),
      });
    const answer = await exchange();
    const tokens = parseTokenAnswer(answer.status, answer.json, now);
    if (isOAuthError(tokens)) throw new Error(tokens.description);
    expect(tokens.scopes).toEqual(["user.info.basic", "video.publish", "video.upload", "video.list"]);
    expect(tokens.expiresAt?.getTime()).toBe(now.getTime() + 86_400_000);

    // A code is used once.
    const again = await exchange();
    const refusal = parseTokenAnswer(again.status, again.json, now);
    expect(isOAuthError(refusal) && refusesGrant(refusal)).toBe(true);

    const profile = await http.call(provider.profile.url, { method: "GET", bearer: tokens.accessToken });
    expect(readPath(profile.json, provider.profile.idPath)).toBe(tiktok.creator.openId);
    expect(readPath(profile.json, provider.profile.namePath)).toBe(tiktok.creator.nickname);

    const refresh = (refreshToken: string) =>
      http.call(provider.tokenUrl, {
        method: "POST",
        form: tokenRequestBody(provider, client, { type: "refresh_token", refreshToken }),
      });
    const renewed = await refresh(tokens.refreshToken ?? "");
    const refreshed = parseTokenAnswer(renewed.status, renewed.json, now);
    if (isOAuthError(refreshed)) throw new Error(refreshed.description);
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
    const stale = await refresh(tokens.refreshToken ?? "");
    expect(parseTokenAnswer(stale.status, stale.json, now)).toMatchObject({ error: "invalid_grant" });

    const form = new URLSearchParams({
      token: refreshed.refreshToken ?? "",
      client_key: "ck-test",
      client_secret: "cs-test",
    });
    expect((await http.call(provider.revokeUrl ?? "", { method: "POST", form: form.toString() })).status).toBe(200);
    expect(tiktok.isLive(refreshed.accessToken)).toBe(false);
  });

  it("sends the user back with access_denied when they refuse, and refuses a wrong client secret", async () => {
    tiktok.deny();
    expect((await authorize()).searchParams.get("error")).toBe("access_denied");
    tiktok.deny(false);
    const code = (await authorize()).searchParams.get("code") ?? "";
    const answer = await http.call(provider.tokenUrl, {
      method: "POST",
      form: tokenRequestBody(
        provider,
        { ...client, clientSecret: "wrong" },
        { type: "authorization_code", code, redirectUri, verifier: "v" },
      ),
    });
    expect(parseTokenAnswer(answer.status, answer.json, now)).toMatchObject({ error: "invalid_client" });
  });
});
