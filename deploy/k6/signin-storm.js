// Sign-in storm: a pool of existing users (made in setup) signing in over and over, as after a
// deploy that cleared every session. k6 run -e BASE_URL=… -e VUS=20 -e USERS=50 deploy/k6/signin-storm.js
import { check, sleep } from "k6";
import exec from "k6/execution";
import http from "k6/http";
import { options as baseOptions, env, params, signIn, signUp, uniqueEmail } from "./lib.js";

export const options = baseOptions(1500);

/** Users of the pool; sign-in works before the email is verified, so setup skips Mailpit. */
export function setup() {
  const count = Number(__ENV.USERS || Math.max(env.vus, 1));
  const emails = [];
  for (let i = 0; i < count; i++) {
    const email = uniqueEmail("signin");
    if (signUp(email, "setup")) emails.push(email);
  }
  return { emails };
}

export default function (data) {
  const email = data.emails[(exec.vu.idInTest + exec.vu.iterationInScenario) % data.emails.length];
  const session = signIn(email);
  if (session) {
    const me = http.get(`${env.baseUrl}/auth/check`, params(session, "GET /auth/check"));
    check(me, { "session is valid": (r) => r.status === 200 });
  }
  sleep(env.think);
}
