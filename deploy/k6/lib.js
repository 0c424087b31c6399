// Shared pieces of the k6 scenarios: parameters from the environment, the gateway's session
// cookies (sent by hand: they are Secure, and k6's jar keeps Secure cookies off plain http), and
// sign-up with the verification email read from Mailpit's API.
import { check, fail, sleep } from "k6";
import exec from "k6/execution";
import http from "k6/http";

/** Parameters of every scenario (environment variables, `k6 run -e NAME=value`). */
export const env = {
  baseUrl: (__ENV.BASE_URL || __ENV.GATEWAY_URL || "http://127.0.0.1:28080").replace(/\/$/, ""),
  mailpitUrl: (__ENV.MAILPIT_API_URL || "http://127.0.0.1:8025").replace(/\/$/, ""),
  vus: Number(__ENV.VUS || 5),
  duration: __ENV.DURATION || "30s",
  /** Pause between iterations of one virtual user, in seconds (a person's think time). */
  think: Number(__ENV.THINK_S || 0.5),
  /**
   * p95 limit of the scenario's gateway requests, in ms; the run fails above it. P95_SCALE widens
   * every latency budget: the smoke run (a few seconds, on whatever else the CI machine is doing)
   * checks that the scenarios work and nothing fails, while the long runs hold the real budgets.
   */
  p95: (fallback) => Number(__ENV.P95_MS || fallback) * Number(__ENV.P95_SCALE || 1),
  /** Highest share of failed gateway requests before the run fails (default 1%). */
  maxErrorRate: Number(__ENV.MAX_ERROR_RATE || 0.01),
};

export const PASSWORD = "Load-test-passw0rd!";

/** The VU schedule and the thresholds every scenario shares; `p95Ms` is the scenario's latency budget. */
export function options(p95Ms, extraThresholds = {}) {
  return {
    scenarios: {
      main: { executor: "constant-vus", vus: env.vus, duration: env.duration, gracefulStop: "30s" },
    },
    setupTimeout: "300s",
    thresholds: {
      "http_req_duration{type:gateway}": [{ threshold: `p(95)<${env.p95(p95Ms)}`, abortOnFail: false }],
      "http_req_failed{type:gateway}": [`rate<${env.maxErrorRate}`],
      checks: [`rate>${1 - env.maxErrorRate}`],
      ...extraThresholds,
    },
    summaryTrendStats: ["avg", "min", "med", "p(90)", "p(95)", "p(99)", "max"],
  };
}

/** A unique address per VU and iteration, so runs never collide with earlier data. */
export function uniqueEmail(prefix) {
  const run = __ENV.RUN_ID || Date.now().toString(36);
  const vu = exec.vu.idInTest;
  const it = exec.vu.iterationInScenario;
  return `${prefix}-${run}-${vu}-${it}-${Math.floor(Math.random() * 1e9).toString(36)}@load.example.test`;
}

/** Request params for a gateway call: JSON and same-origin on writes (CSRF rules), the session cookies, a name tag. */
export function params(session, name, cookieNames = ["crafter_at"], type = "gateway") {
  const cookie = session
    ? cookieNames
        .filter((key) => session[key])
        .map((key) => `${key}=${session[key]}`)
        .join("; ")
    : "";
  return {
    headers: {
      "content-type": "application/json",
      origin: env.baseUrl,
      ...(cookie ? { cookie } : {}),
    },
    tags: { type, name },
    // Keeps k6's own jar out: the session is exactly what this code sends.
    jar: new http.CookieJar(),
    responseType: "text",
  };
}

/** The session cookies a response set, over the ones the session already had. */
export function absorbCookies(session, response) {
  for (const name of ["crafter_at", "crafter_rt"]) {
    const set = response.cookies[name];
    if (set && set.length > 0) session[name] = set[0].value;
  }
  return session;
}

export function envelope(response) {
  try {
    return JSON.parse(response.body);
  } catch {
    return { success: false, result: null, error: { code: `non-JSON ${response.status}` } };
  }
}

/** POST /auth/signup for a new address; true when the gateway accepted it. */
export function signUp(email, type = "gateway") {
  const response = http.post(
    `${env.baseUrl}/auth/signup`,
    JSON.stringify({ email, password: PASSWORD, displayName: "Load Tester" }),
    params(null, "POST /auth/signup", [], type),
  );
  return check(response, { "sign-up 200": (r) => r.status === 200 });
}

/**
 * Reads the verification link's token from Mailpit, polling up to `timeoutS` (MAIL_WAIT_S, 60 s):
 * the email goes sign-up → outbox → Kafka → notifications → SMTP, which takes tens of seconds on a
 * busy machine.
 */
export function verificationToken(email, timeoutS = Number(__ENV.MAIL_WAIT_S || 60)) {
  const deadline = Date.now() + timeoutS * 1000;
  const query = encodeURIComponent(`to:"${email}" subject:verify`);
  const tags = { tags: { type: "mailpit" } };
  while (Date.now() < deadline) {
    const found = http.get(`${env.mailpitUrl}/api/v1/search?query=${query}`, tags);
    const messages = found.status === 200 ? found.json("messages") || [] : [];
    if (messages.length > 0) {
      const message = http.get(`${env.mailpitUrl}/api/v1/message/${messages[0].ID}`, tags);
      const match = /[?&]token=([A-Za-z0-9_\-.%]+)/.exec(message.json("Text") || "");
      if (match) return decodeURIComponent(match[1]);
    }
    sleep(0.25);
  }
  return undefined;
}

/** POST /auth/verify with the emailed token. */
export function verifyEmail(token, type = "gateway") {
  const response = http.post(
    `${env.baseUrl}/auth/verify`,
    JSON.stringify({ token }),
    params(null, "POST /auth/verify", [], type),
  );
  return check(response, { "verify 200": (r) => r.status === 200 });
}

/** POST /auth/signin; the session's cookies, or undefined when it was refused. */
export function signIn(email, type = "gateway") {
  const response = http.post(
    `${env.baseUrl}/auth/signin`,
    JSON.stringify({ email, password: PASSWORD }),
    params(null, "POST /auth/signin", [], type),
  );
  const okay = check(response, {
    "sign-in 200": (r) => r.status === 200,
    "sign-in sets both cookies": (r) => Boolean(r.cookies.crafter_at && r.cookies.crafter_rt),
  });
  return okay ? absorbCookies({ email }, response) : undefined;
}

/**
 * A verified user, signed in: sign-up, the emailed link, sign-in. Fails the iteration on any step.
 * @param type the requests' `type` tag: "gateway" when they are what the scenario measures,
 * "setup" when they only prepare a user (kept out of the latency thresholds).
 */
export function newVerifiedSession(prefix, type = "gateway") {
  const email = uniqueEmail(prefix);
  if (!signUp(email, type)) fail(`sign-up refused for ${email}`);
  const token = verificationToken(email);
  if (!check(token, { "verification email arrived": (t) => Boolean(t) })) fail(`no verification email to ${email}`);
  if (!verifyEmail(token, type)) fail(`verification refused for ${email}`);
  const session = signIn(email, type);
  if (!session) fail(`sign-in refused for ${email}`);
  return session;
}
