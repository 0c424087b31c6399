// Crafting with the offline engine: create a BlogWriter craft and complete its steps through REST
// (docs/api.md, /api/workflowsV2). k6 run -e BASE_URL=… -e VUS=10 -e DURATION=3m deploy/k6/crafting.js
// CRAFTS_PER_USER bounds the generations of one user (credits: 100 free per new user).
import { check, fail, sleep } from "k6";
import http from "k6/http";
import { options as baseOptions, env, envelope, newVerifiedSession, params } from "./lib.js";

// A completion streams the offline draft (OFFLINE_STREAM_DELAY_MS per token) before it answers.
export const options = baseOptions(3000, {
  "http_req_duration{name:PUT /api/workflowsV2/{id}/step/complete}": [
    `p(95)<${Number(__ENV.COMPLETE_P95_MS || 10000)}`,
  ],
});

const CRAFTS_PER_USER = Number(__ENV.CRAFTS_PER_USER || 20);
let session;
let crafts = 0;

export default function () {
  if (!session || crafts >= CRAFTS_PER_USER) {
    session = newVerifiedSession("craft", "setup");
    crafts = 0;
  }
  crafts++;
  const created = http.post(
    `${env.baseUrl}/api/workflowsV2`,
    JSON.stringify({ workflowName: "BlogWriter", craftName: "Load test post" }),
    params(session, "POST /api/workflowsV2"),
  );
  if (!check(created, { "craft created 201": (r) => r.status === 201 }))
    fail(`create: ${created.status} ${created.body}`);
  let craft = envelope(created).result;
  const craftId = craft.craftId;

  // The topic step takes the form; each later step starts from the values the previous one left.
  let values = { topic: "Why slow-fermented sourdough is easier to digest", keywords: ["sourdough", "fermentation"] };
  for (let index = 0; index < craft.steps.length; index++) {
    const step = craft.steps[index];
    // Steps without an action (the draft editor) have nothing to generate.
    if (!step.action) continue;
    if (index > 0) values = step.values || {};
    const completed = http.put(
      `${env.baseUrl}/api/workflowsV2/${craftId}/step/complete`,
      JSON.stringify({ stepName: step.name, values }),
      params(session, "PUT /api/workflowsV2/{id}/step/complete"),
    );
    const body = envelope(completed);
    const okay = check(completed, {
      "step completed 200": (r) => r.status === 200,
      "offline engine wrote a result": () => body.success && Boolean(body.result.result?.content),
    });
    if (!okay) fail(`complete ${step.name}: ${completed.status} ${completed.body}`);
    craft = body.result.craft;
    sleep(env.think);
  }
  const reloaded = http.get(`${env.baseUrl}/api/workflowsV2/${craftId}`, params(session, "GET /api/workflowsV2/{id}"));
  check(reloaded, { "craft is completed": (r) => r.status === 200 && envelope(r).result.state === "Completed" });
  sleep(env.think);
}
