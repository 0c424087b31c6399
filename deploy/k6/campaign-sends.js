// Campaign sends: businesses emailing their subscribers. Each VU signs up, creates a business with
// its postal address (campaigns need one), adds a few contacts, records their consent (subscribed)
// and saves a segment of them; then, again and again, it creates a campaign for the segment, sends
// it and polls until it is `sent`, checking that every subscriber was reached exactly once in the
// campaign's figures (sent = recipients, no failures). Mailpit receives the emails.
// k6 run -e BASE_URL=… -e VUS=5 -e DURATION=1m deploy/k6/campaign-sends.js
import { check, fail, sleep } from "k6";
import exec from "k6/execution";
import http from "k6/http";
import { Counter, Trend } from "k6/metrics";
import { options as baseOptions, env, envelope, newVerifiedSession, params } from "./lib.js";

/** Subscribers per business (the free plan sends 500 emails a month: a VU stays far under it). */
const CONTACTS = Number(__ENV.CAMPAIGN_CONTACTS || 5);
/** How long a campaign may take from "send" to `sent` before the iteration fails, in seconds. */
const SEND_WAIT_S = Number(__ENV.SEND_WAIT_S || 60);

const sendSeconds = new Trend("campaign_send_seconds");
const notSent = new Counter("campaigns_not_sent");

export const options = baseOptions(1500, {
  // From "send" to the campaign's status `sent` (the dispatch scan, the round, SMTP, the figures).
  campaign_send_seconds: [`p(95)<${env.p95(15000) / 1000}`],
  campaigns_not_sent: ["count<1"],
});

let business;

function newBusiness() {
  const session = newVerifiedSession("sends", "setup");
  const call = (method, path, body, name, type = "setup") =>
    http.request(
      method,
      `${env.baseUrl}${path}`,
      body ? JSON.stringify(body) : null,
      params(session, name, ["crafter_at"], type),
    );
  const created = call(
    "POST",
    "/api/projects/createProject",
    { name: "Load Test Florist", description: "A flower shop emailing its weekly bouquets." },
    "POST /api/projects/createProject",
  );
  if (created.status !== 201) fail(`project: ${created.status} ${created.body}`);
  const { project, profile } = envelope(created).result;
  const address = call(
    "PATCH",
    `/api/profiles/${profile.profileId}`,
    { values: { address: "3 Petal Row, Leeds LS1 1AA" } },
    "PATCH /api/profiles/{id}",
  );
  if (address.status !== 200) fail(`address: ${address.status} ${address.body}`);
  const tag = `weekly-${exec.vu.idInTest}`;
  const run = __ENV.RUN_ID || Date.now().toString(36);
  for (let i = 0; i < CONTACTS; i++) {
    const contact = call(
      "POST",
      `/api/contacts?projectId=${project.projectId}`,
      { email: `sends-${run}-${exec.vu.idInTest}-${i}@load.example.test`, firstName: `Ada${i}`, tags: [tag] },
      "POST /api/contacts",
    );
    if (contact.status !== 201) fail(`contact: ${contact.status} ${contact.body}`);
    const consent = call(
      "PATCH",
      `/api/contacts/${envelope(contact).result.id}?projectId=${project.projectId}`,
      { consent: "subscribed" },
      "PATCH /api/contacts/{id}",
    );
    if (consent.status !== 200) fail(`consent: ${consent.status} ${consent.body}`);
  }
  const segment = call(
    "POST",
    `/api/segments?projectId=${project.projectId}`,
    {
      name: "Weekly bouquet",
      query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
    },
    "POST /api/segments",
  );
  if (segment.status >= 300) fail(`segment: ${segment.status} ${segment.body}`);
  return { call, projectId: project.projectId, segmentId: envelope(segment).result.id };
}

export default function () {
  if (!business) business = newBusiness();
  const { call, projectId, segmentId } = business;
  const created = call(
    "POST",
    `/api/email/campaigns?projectId=${projectId}`,
    {
      name: `Bouquet ${exec.vu.iterationInScenario + 1}`,
      segmentId,
      subject: 'This week\'s bouquet, {{contact.firstName | "friend"}}',
      html: '<h1>Hello {{contact.firstName | "there"}}</h1><p><a href="https://florist.example/bouquets">See the bouquets</a></p>',
    },
    "POST /api/email/campaigns",
    "gateway",
  );
  if (!check(created, { "campaign created 201": (r) => r.status === 201 })) {
    console.error(`campaign: ${created.status} ${created.body}`);
    return;
  }
  const id = envelope(created).result.id;
  const started = Date.now();
  const sent = call("POST", `/api/email/campaigns/${id}/send`, {}, "POST /api/email/campaigns/{id}/send", "gateway");
  if (!check(sent, { "send 200": (r) => r.status === 200 })) {
    console.error(`send: ${sent.status} ${sent.body}`);
    return;
  }
  let campaign;
  while (Date.now() - started < SEND_WAIT_S * 1000) {
    const got = call("GET", `/api/email/campaigns/${id}`, null, "GET /api/email/campaigns/{id}", "gateway");
    if (got.status === 200) campaign = envelope(got).result;
    if (campaign && campaign.status !== "sending" && campaign.status !== "scheduled") break;
    sleep(0.25);
  }
  const done = campaign?.status === "sent";
  if (done) sendSeconds.add((Date.now() - started) / 1000);
  else notSent.add(1);
  check(campaign, {
    "campaign sent": () => done,
    "every subscriber reached once": (c) =>
      done && c.stats.recipients === CONTACTS && c.stats.sent === CONTACTS && c.stats.failed === 0,
  });
  sleep(env.think);
}
