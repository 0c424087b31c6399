// The refresh contract under load (issue 9): many users whose access tokens ran out refresh at once.
// A browser's tabs take turns (the web client's cross-tab lock), so each user sends one refresh; one
// tab that raced it with the same refresh token is allowed once inside the grace window
// (REFRESH_REUSE_GRACE_MS, 20 s, same client). Neither may be refused, and the session must go on
// working. A third use of one token is a replay and revokes the family (tested in
// services/gateway/test/auth-security.int.test.ts, not here).
// k6 run -e BASE_URL=… -e VUS=20 deploy/k6/refresh-storm.js
import { check, sleep } from "k6";
import http from "k6/http";
import { Counter } from "k6/metrics";
import { absorbCookies, options as baseOptions, env, newVerifiedSession, params } from "./lib.js";

const loggedOut = new Counter("logged_out_users");

export const options = baseOptions(1500, {
  // The contract: never log a user out.
  logged_out_users: ["count<1"],
});

// The refresh itself and the one tab the grace window lets race it.
const TABS = 2;
const ROUNDS = Number(__ENV.ROUNDS_PER_USER || 10);
let session;
let rounds = 0;

function refreshRequest(rt) {
  return [
    "POST",
    `${env.baseUrl}/auth/token/refresh`,
    "{}",
    params({ crafter_rt: rt }, "POST /auth/token/refresh", ["crafter_rt"]),
  ];
}

export default function () {
  if (!session || rounds >= ROUNDS) {
    // /api refuses unverified users (issue 9): a verified user, as in the other scenarios.
    session = newVerifiedSession("refresh", "setup");
    rounds = 0;
  }
  rounds++;
  // The refreshing tab and the one that raced it send the refresh token they share.
  const responses = http.batch(Array.from({ length: TABS }, () => refreshRequest(session.crafter_rt)));
  const refused = responses.filter((r) => r.status === 401).length;
  check(responses, {
    "every tab refreshed (200)": (all) => all.every((r) => r.status === 200),
    "every tab got new cookies": (all) => all.every((r) => r.cookies.crafter_at && r.cookies.crafter_rt),
  });
  // The browser keeps whichever cookies came last; any of them must carry on.
  const last = responses[responses.length - 1];
  if (last.status === 200) absorbCookies(session, last);
  const read = http.get(`${env.baseUrl}/api/user/account`, params(session, "GET /api/user/account"));
  const followUp = http.post(...refreshRequest(session.crafter_rt).slice(1));
  if (followUp.status === 200) absorbCookies(session, followUp);
  const stillIn = check(null, {
    "session works after the storm": () => read.status === 200,
    "next refresh accepted": () => followUp.status === 200,
  });
  if (refused > 0 || !stillIn) {
    loggedOut.add(1);
    session = undefined;
  }
  sleep(env.think);
}
