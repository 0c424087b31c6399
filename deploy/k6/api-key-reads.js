// A third party reading Crafter's API with a personal API key (Authorization: Bearer crk_…):
// no cookies, no Origin, the `read` scope. Each VU creates its own key in the browser session and
// paces itself under the per-key limit (API_KEY_LIMIT_PER_MINUTE, 120 by default), as a
// well-behaved client does; any 429 counts as a failed request.
// k6 run -e BASE_URL=… -e VUS=20 -e DURATION=2m deploy/k6/api-key-reads.js
import { check, fail, sleep } from "k6";
import http from "k6/http";
import { options as baseOptions, env, envelope, newVerifiedSession, params } from "./lib.js";

export const options = baseOptions(500);

const PER_MINUTE = Number(__ENV.API_KEY_LIMIT_PER_MINUTE || 120);
const READS = [
  ["GET /api/user/account", "/api/user/account"],
  ["GET /api/workflowsV2/headers", "/api/workflowsV2/headers"],
  ["GET /api/projects/active-project", "/api/projects/active-project"],
];
let secret;
let turn = 0;

function newKey() {
  const session = newVerifiedSession("apikey", "setup");
  const created = http.post(
    `${env.baseUrl}/api/settings/apiKeys`,
    JSON.stringify({ name: "load test", scopes: ["read"] }),
    params(session, "POST /api/settings/apiKeys", ["crafter_at"], "setup"),
  );
  if (created.status !== 201) fail(`api key: ${created.status} ${created.body}`);
  return envelope(created).result.secret;
}

export default function () {
  secret ??= newKey();
  const [name, path] = READS[turn++ % READS.length];
  const response = http.get(`${env.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${secret}` },
    tags: { type: "gateway", name },
    jar: new http.CookieJar(),
    responseType: "text",
  });
  check(response, {
    [`${name} 200`]: (r) => r.status === 200,
    [`${name} success`]: (r) => r.status === 200 && envelope(r).success === true,
  });
  // At most PER_MINUTE requests a minute per key, with a tenth to spare.
  sleep(Math.max(env.think, (60 / PER_MINUTE) * 1.1));
}
