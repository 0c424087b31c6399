// A burst of public lead-form submissions: what a business's form sees when a post goes viral.
// Each VU signs up, creates a business and saves its lead form;
// then it submits the form as many different visitors (own address, own client IP through
// X-Forwarded-For, which the test stack trusts one hop of), as a browser on another site would.
// k6 run -e BASE_URL=… -e VUS=10 -e DURATION=1m deploy/k6/lead-form-burst.js
import { check, fail, sleep } from "k6";
import exec from "k6/execution";
import http from "k6/http";
import { options as baseOptions, env, envelope, newVerifiedSession, params, uniqueEmail } from "./lib.js";

export const options = baseOptions(1500, {
  "http_req_duration{name:POST /api/public/forms/{formId}/submissions}": [`p(95)<${env.p95(1000)}`],
});

// A form takes 200 submissions an hour (the gateway's per-form limit): a VU moves to a new
// business before it would reach it.
const SUBMISSIONS_PER_FORM = Number(__ENV.SUBMISSIONS_PER_FORM || 150);
let formId;
let submitted = 0;

function newForm() {
  const session = newVerifiedSession("leads", "setup");
  const created = http.post(
    `${env.baseUrl}/api/projects/createProject`,
    JSON.stringify({ name: "Load Test Bikes", description: "A bicycle shop with a busy lead form." }),
    params(session, "POST /api/projects/createProject", ["crafter_at"], "setup"),
  );
  if (created.status !== 201) fail(`project: ${created.status} ${created.body}`);
  const projectId = envelope(created).result.project.projectId;
  const form = http.put(
    `${env.baseUrl}/api/leads/form?projectId=${projectId}`,
    JSON.stringify({
      title: "Ride with us",
      fields: [
        { key: "email", label: "Email", type: "email", required: true },
        { key: "firstName", label: "First name", type: "text", required: true },
      ],
      consentText: "I agree to receive the shop's emails.",
      thankYouMessage: "Thanks! Check your inbox.",
    }),
    params(session, "PUT /api/leads/form", ["crafter_at"], "setup"),
  );
  if (form.status !== 200) fail(`form: ${form.status} ${form.body}`);
  return envelope(form).result.id;
}

export default function () {
  if (!formId || submitted >= SUBMISSIONS_PER_FORM) {
    formId = newForm();
    submitted = 0;
  }
  submitted++;
  const vu = exec.vu.idInTest;
  const it = exec.vu.iterationInScenario;
  const visitor = `10.${vu % 250}.${Math.floor(it / 250) % 250}.${(it % 250) + 1}`;
  const response = http.post(
    `${env.baseUrl}/api/public/forms/${formId}/submissions`,
    JSON.stringify({ values: { email: uniqueEmail("lead"), firstName: "Robin" } }),
    {
      headers: { "content-type": "application/json", origin: "https://shop.example.test", "x-forwarded-for": visitor },
      tags: { type: "gateway", name: "POST /api/public/forms/{formId}/submissions" },
      jar: new http.CookieJar(),
      responseType: "text",
    },
  );
  if (response.status !== 200) console.error(`submission: ${response.status} ${response.body}`);
  check(response, {
    "submission 200": (r) => r.status === 200,
    "thank-you message": (r) => r.status === 200 && typeof envelope(r).result?.thankYouMessage === "string",
  });
  sleep(env.think);
}
