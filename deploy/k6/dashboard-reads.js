// The dashboard's read mix: what the app loads on open and on navigation, per signed-in user.
// k6 run -e BASE_URL=… -e VUS=50 -e DURATION=5m deploy/k6/dashboard-reads.js
import { check, sleep } from "k6";
import http from "k6/http";
import { options as baseOptions, env, newVerifiedSession, params } from "./lib.js";

export const options = baseOptions(500);

const READS = [
  ["GET /api/app/initial", "/api/app/initial"],
  ["GET /api/user/account", "/api/user/account"],
  ["GET /api/flags/user", "/api/flags/user"],
  ["GET /api/projects/active-project", "/api/projects/active-project"],
  ["GET /api/workflowsV2/headers", "/api/workflowsV2/headers"],
];

let session; // one user per VU, made on its first iteration (tagged "setup", outside the thresholds)

export default function () {
  session ??= newVerifiedSession("reads", "setup");
  // The app opens with /app/initial; the rest load as the user moves around.
  for (const [name, path] of READS) {
    const response = http.get(`${env.baseUrl}${path}`, params(session, name));
    check(response, {
      [`${name} 200`]: (r) => r.status === 200,
      [`${name} success`]: (r) => r.status === 200 && r.json("success") === true,
    });
  }
  sleep(env.think);
}
