// The refresh contract under load: a user with many tabs open whose access token ran out; every tab
// refreshes at once with the same refresh token. None may be refused (the auth service's reuse grace,
// REFRESH_REUSE_GRACE_MS, 20 s), and the session must go on working afterwards.
// k6 run -e BASE_URL=… -e VUS=20 -e TABS=8 deploy/k6/refresh-storm.js
import { check, sleep } from "k6";
import http from "k6/http";
import { Counter } from "k6/metrics";
import { absorbCookies, options as baseOptions, env, params, signIn, signUp, uniqueEmail } from "./lib.js";

const loggedOut = new Counter("logged_out_users");

export const options = baseOptions(1500, {
  // The contract: never log a user out.
  logged_out_users: ["count<1"],
});

const TABS = Number(__ENV.TABS || 6);
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
    const email = uniqueEmail("refresh");
    signUp(email, "setup");
    session = signIn(email, "setup");
    rounds = 0;
    if (!session) return;
  }
  rounds++;
  // Every tab sends the refresh token they all share.
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
