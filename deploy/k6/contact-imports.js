// Contact imports: each VU gets a user and a business (made in setup, outside the timed run), then
// over and over uploads a CSV of ROWS
// people (default 200: the free plan holds 250), starts it with "update" for people already there,
// and polls its progress until the result. The first import of a VU creates the contacts, the next
// ones update them (a new name each time). The time from upload to result is the `import_duration`
// trend, with its own p95 budget; every import must end with every row processed and none failed,
// and at least one import must finish in the run (`imports_done`).
// k6 run -e BASE_URL=… -e VUS=5 -e DURATION=1m -e ROWS=200 deploy/k6/contact-imports.js
import { check, fail, sleep } from "k6";
import exec from "k6/execution";
import http from "k6/http";
import { Counter, Trend } from "k6/metrics";
import { options as baseOptions, env, envelope, newVerifiedSession, params } from "./lib.js";

const ROWS = Number(__ENV.ROWS || 200);
/** p95 of an import from upload to result, in ms. */
const IMPORT_P95_MS = Number(__ENV.IMPORT_P95_MS || 5000);

export const options = baseOptions(1000, {
  import_duration: [`p(95)<${env.p95(IMPORT_P95_MS)}`],
  "checks{check:import result}": ["rate>0.99"],
  imports_done: ["count>0"],
});

const importDuration = new Trend("import_duration", true);
const importsDone = new Counter("imports_done");
let round = 0;

/** One signed-in user with a business per VU. */
export function setup() {
  return Array.from({ length: env.vus }, () => newProject());
}

function newProject() {
  const session = newVerifiedSession("imports", "setup");
  const created = http.post(
    `${env.baseUrl}/api/projects/createProject`,
    JSON.stringify({ name: "Load Test Bakery", description: "A bakery importing its customer list." }),
    params(session, "POST /api/projects/createProject", ["crafter_at"], "setup"),
  );
  if (created.status !== 201) fail(`project: ${created.status} ${created.body}`);
  return { session, projectId: envelope(created).result.project.projectId };
}

function csv() {
  const vu = exec.vu.idInTest;
  const run = __ENV.RUN_ID || "run";
  const lines = ["Email Address,First Name,Last Name,TAGS"];
  for (let i = 0; i < ROWS; i++)
    lines.push(`p${i}-${vu}-${run}@load.example.test,Round${round},Person ${i},"load, k6"`);
  return lines.join("\n");
}

export default function (users) {
  const { session, projectId } = users[(exec.vu.idInTest - 1) % users.length];
  round++;
  const started = Date.now();
  const uploadParams = params(session, "POST /api/contacts/imports");
  uploadParams.headers["content-type"] = "text/csv";
  const uploaded = http.post(
    `${env.baseUrl}/api/contacts/imports?name=load.csv&projectId=${projectId}`,
    csv(),
    uploadParams,
  );
  if (!check(uploaded, { "upload 201": (r) => r.status === 201 })) {
    console.error(`upload: ${uploaded.status} ${uploaded.body}`);
    return;
  }
  const id = envelope(uploaded).result.id;
  const start = http.put(
    `${env.baseUrl}/api/contacts/imports/${id}`,
    JSON.stringify({ duplicates: "update" }),
    params(session, "PUT /api/contacts/imports/{id}"),
  );
  if (!check(start, { "start 200": (r) => r.status === 200 })) {
    console.error(`start: ${start.status} ${start.body}`);
    return;
  }
  let state;
  for (let polls = 0; polls < 600; polls++) {
    const got = http.get(
      `${env.baseUrl}/api/contacts/imports/${id}`,
      params(session, "GET /api/contacts/imports/{id}"),
    );
    state = envelope(got).result;
    if (state && (state.status === "result" || state.status === "error")) break;
    sleep(0.1);
  }
  importDuration.add(Date.now() - started);
  if (state?.status === "result") importsDone.add(1);
  const ok = check(state, {
    "import result": (s) => s?.status === "result" && s.result.processed === ROWS && s.result.failed === 0,
  });
  if (!ok) console.error(`import ${id}: ${JSON.stringify(state)}`);
  sleep(env.think);
}
