#!/usr/bin/env node
// Writes deploy/grafana/dashboards/*.json from one description, so every dashboard queries the
// metric names the services actually emit (services/kit/src/telemetry/metrics.ts, plus the HTTP
// instrumentation's http.server.request.duration), one per component of services/manifest.yaml.
// Run after changing a metric or the manifest (node scripts/manifest.mjs generate runs it too):
//   node scripts/grafana-dashboards.mjs           writes them
//   node scripts/grafana-dashboards.mjs --check   fails when the committed ones differ (make check)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadManifest } from "./manifest.mjs";

const out = join(new URL("..", import.meta.url).pathname, "deploy/grafana/dashboards");
const DS = { type: "prometheus", uid: "prometheus" };
// The Connect/gRPC services; the HTTP gateway has a dashboard of its own below.
const SERVICES = Object.values(loadManifest().components)
  .filter((c) => c.protocol === "grpc")
  .map((c) => c.name);
const SERVER_FAULTS = "Internal|Unknown|DataLoss|Unavailable|DeadlineExceeded";

/** A time series panel; `targets` are [expr, legend] pairs. */
function panel(title, targets, { unit = "short", w = 12, h = 8, stack = false, description } = {}) {
  return {
    type: "timeseries",
    title,
    ...(description ? { description } : {}),
    datasource: DS,
    gridPos: { w, h },
    fieldConfig: {
      defaults: {
        unit,
        custom: {
          drawStyle: "line",
          lineWidth: 1,
          fillOpacity: stack ? 30 : 10,
          stacking: { mode: stack ? "normal" : "none" },
        },
      },
      overrides: [],
    },
    options: { legend: { displayMode: "list", placement: "bottom" }, tooltip: { mode: "multi" } },
    targets: targets.map(([expr, legendFormat], i) => ({
      datasource: DS,
      expr,
      legendFormat,
      refId: String.fromCharCode(65 + i),
    })),
  };
}

/** A single-number panel. */
function stat(title, expr, { unit = "short", w = 6, h = 4, decimals } = {}) {
  return {
    type: "stat",
    title,
    datasource: DS,
    gridPos: { w, h },
    fieldConfig: { defaults: { unit, ...(decimals !== undefined ? { decimals } : {}) }, overrides: [] },
    options: {
      reduceOptions: { calcs: ["lastNotNull"], fields: "", values: false },
      colorMode: "value",
      graphMode: "area",
    },
    targets: [{ datasource: DS, expr, refId: "A" }],
  };
}

function row(title) {
  return { type: "row", title, collapsed: false, gridPos: { w: 24, h: 1 }, panels: [] };
}

/** Lays panels out left to right, wrapping at 24 columns, and numbers them. */
function layout(panels) {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return panels.map((p, i) => {
    const { w, h } = p.gridPos;
    if (x + w > 24 || p.type === "row") {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const placed = { ...p, id: i + 1, gridPos: { x, y, w, h } };
    x += w;
    rowHeight = Math.max(rowHeight, h);
    if (p.type === "row") {
      x = 0;
      y += h;
      rowHeight = 0;
    }
    return placed;
  });
}

function dashboard(uid, title, panels, { tags = [], templating = [] } = {}) {
  return {
    uid,
    title,
    tags: ["crafter", ...tags],
    timezone: "browser",
    schemaVersion: 39,
    version: 1,
    editable: true,
    graphTooltip: 1,
    refresh: "30s",
    time: { from: "now-3h", to: "now" },
    templating: { list: templating },
    annotations: { list: [] },
    links: [{ type: "dashboards", tags: ["crafter"], asDropdown: true, title: "Crafter" }],
    panels: layout(panels),
  };
}

const rate = (metric, selector, by) => `sum${by ? ` by (${by})` : ""} (rate(${metric}{${selector}}[$__rate_interval]))`;
const quantile = (q, metric, selector, by) =>
  `histogram_quantile(${q}, sum by (le${by ? `, ${by}` : ""}) (rate(${metric}_bucket{${selector}}[$__rate_interval])))`;

function rpcServerPanels(job) {
  const sel = `job="${job}"`;
  const m = "rpc_server_duration_seconds";
  return [
    row("RPC server (rate, errors, duration)"),
    panel("Calls per second by method", [[rate(`${m}_count`, sel, "rpc_method"), "{{rpc_method}}"]], {
      unit: "reqps",
      w: 8,
    }),
    panel("Errors per second by code", [[rate(`${m}_count`, `${sel}, rpc_code!="OK"`, "rpc_code"), "{{rpc_code}}"]], {
      unit: "reqps",
      w: 8,
      stack: true,
    }),
    panel(
      "Duration p50 / p95 / p99",
      [
        [quantile(0.5, m, sel), "p50"],
        [quantile(0.95, m, sel), "p95"],
        [quantile(0.99, m, sel), "p99"],
      ],
      { unit: "s", w: 8 },
    ),
    panel("p95 by method", [[quantile(0.95, m, sel, "rpc_method"), "{{rpc_method}}"]], { unit: "s", w: 12 }),
    panel(
      "Server-fault ratio",
      [[`${rate(`${m}_count`, `${sel}, rpc_code=~"${SERVER_FAULTS}"`)} / ${rate(`${m}_count`, sel)}`, "faults"]],
      { unit: "percentunit", w: 12 },
    ),
  ];
}

function rpcClientPanels(job) {
  const sel = `job="${job}"`;
  const m = "rpc_client_duration_seconds";
  return [
    row("RPC client (calls to other services)"),
    panel("Calls per second by service", [[rate(`${m}_count`, sel, "rpc_service"), "{{rpc_service}}"]], {
      unit: "reqps",
      w: 8,
    }),
    panel(
      "Errors per second by code",
      [[rate(`${m}_count`, `${sel}, rpc_code!="OK"`, "rpc_service, rpc_code"), "{{rpc_service}} {{rpc_code}}"]],
      {
        unit: "reqps",
        w: 8,
      },
    ),
    panel("p95 by service", [[quantile(0.95, m, sel, "rpc_service"), "{{rpc_service}}"]], { unit: "s", w: 8 }),
  ];
}

function eventPanels(job) {
  const sel = `job="${job}"`;
  return [
    row("Events (Kafka, outbox)"),
    panel(
      "Published per second by topic",
      [[rate("crafter_events_published_total", sel, "messaging_destination_name"), "{{messaging_destination_name}}"]],
      {
        unit: "ops",
        w: 8,
      },
    ),
    panel(
      "Handled per second by type and outcome",
      [
        [
          rate("crafter_events_process_duration_seconds_count", sel, "cloudevents_event_type, outcome"),
          "{{cloudevents_event_type}} {{outcome}}",
        ],
      ],
      { unit: "ops", w: 8 },
    ),
    panel(
      "Handling p95 by type",
      [
        [
          quantile(0.95, "crafter_events_process_duration_seconds", sel, "cloudevents_event_type"),
          "{{cloudevents_event_type}}",
        ],
      ],
      {
        unit: "s",
        w: 8,
      },
    ),
    panel(
      "Consumer lag by topic",
      [[`max by (messaging_destination_name) (crafter_events_consumer_lag{${sel}})`, "{{messaging_destination_name}}"]],
      { w: 8 },
    ),
    panel(
      "Dead-lettered (increase over 15 m)",
      [
        [
          `sum by (messaging_destination_name) (increase(crafter_events_dlq_total{${sel}}[15m]))`,
          "{{messaging_destination_name}}",
        ],
      ],
      {
        w: 8,
      },
    ),
    panel(
      "Outbox backlog by collection",
      [[`max by (collection) (crafter_outbox_backlog{${sel}})`, "{{collection}}"]],
      { w: 8 },
    ),
  ];
}

const dashboards = {};

// Overview: the golden signals of the whole system on one screen.
dashboards.overview = dashboard(
  "crafter-overview",
  "Crafter / Overview",
  [
    stat("Gateway requests/s", rate("http_server_request_duration_seconds_count", 'job="gateway"'), { unit: "reqps" }),
    stat(
      "Gateway 5xx ratio",
      `${rate("http_server_request_duration_seconds_count", 'job="gateway", http_response_status_code=~"5.."')} / ${rate("http_server_request_duration_seconds_count", 'job="gateway"')}`,
      { unit: "percentunit", decimals: 2 },
    ),
    stat(
      "Gateway p95 (non-stream)",
      quantile(0.95, "http_server_request_duration_seconds", 'job="gateway", http_route!~"/rpc.*"'),
      { unit: "s" },
    ),
    stat("Max consumer lag", "max(crafter_events_consumer_lag)"),
    panel(
      "Gateway requests/s by status",
      [
        [
          rate("http_server_request_duration_seconds_count", 'job="gateway"', "http_response_status_code"),
          "{{http_response_status_code}}",
        ],
      ],
      {
        unit: "reqps",
        stack: true,
      },
    ),
    panel(
      "Gateway latency",
      [
        [quantile(0.5, "http_server_request_duration_seconds", 'job="gateway", http_route!~"/rpc.*"'), "p50"],
        [quantile(0.95, "http_server_request_duration_seconds", 'job="gateway", http_route!~"/rpc.*"'), "p95"],
        [quantile(0.99, "http_server_request_duration_seconds", 'job="gateway", http_route!~"/rpc.*"'), "p99"],
      ],
      { unit: "s" },
    ),
    panel("RPCs served/s by service", [[rate("rpc_server_duration_seconds_count", "", "job"), "{{job}}"]], {
      unit: "reqps",
      w: 8,
    }),
    panel(
      "RPC server faults/s by service",
      [[rate("rpc_server_duration_seconds_count", `rpc_code=~"${SERVER_FAULTS}"`, "job"), "{{job}}"]],
      {
        unit: "reqps",
        w: 8,
      },
    ),
    panel("RPC p95 by service", [[quantile(0.95, "rpc_server_duration_seconds", "", "job"), "{{job}}"]], {
      unit: "s",
      w: 8,
    }),
    panel("Consumer lag by group", [["max by (group) (crafter_events_consumer_lag)", "{{group}}"]], { w: 8 }),
    panel(
      "Dead-lettered (increase over 15 m)",
      [["sum by (group) (increase(crafter_events_dlq_total[15m]))", "{{group}}"]],
      { w: 8 },
    ),
    panel("Outbox backlog by service", [["max by (job) (crafter_outbox_backlog)", "{{job}}"]], { w: 8 }),
    panel("Sign-ups per hour", [["sum(increase(crafter_signups_total[1h]))", "sign-ups"]], { w: 8 }),
    panel("Crafts started per hour", [["sum(increase(crafter_crafts_started_total[1h]))", "crafts"]], { w: 8 }),
    panel(
      "Credits spent per hour",
      [
        [
          "sum(increase(crafter_credits_spent_total[1h])) - (sum(increase(crafter_credits_refunded_total[1h])) or vector(0))",
          "credits",
        ],
      ],
      { w: 8 },
    ),
  ],
  { tags: ["overview"] },
);

// Gateway: HTTP by route, and its calls to the services.
{
  const m = "http_server_request_duration_seconds";
  const sel = 'job="gateway"';
  dashboards["service-gateway"] = dashboard(
    "crafter-service-gateway",
    "Crafter / Service / gateway",
    [
      row("HTTP (rate, errors, duration)"),
      panel(
        "Requests/s by route",
        [[rate(`${m}_count`, sel, "http_request_method, http_route"), "{{http_request_method}} {{http_route}}"]],
        { unit: "reqps", w: 8 },
      ),
      panel(
        "4xx and 5xx per second by route",
        [
          [
            rate(`${m}_count`, `${sel}, http_response_status_code=~"[45].."`, "http_route, http_response_status_code"),
            "{{http_route}} {{http_response_status_code}}",
          ],
        ],
        {
          unit: "reqps",
          w: 8,
        },
      ),
      panel(
        "Duration p50 / p95 / p99 (streams excluded)",
        [
          [quantile(0.5, m, `${sel}, http_route!~"/rpc.*"`), "p50"],
          [quantile(0.95, m, `${sel}, http_route!~"/rpc.*"`), "p95"],
          [quantile(0.99, m, `${sel}, http_route!~"/rpc.*"`), "p99"],
        ],
        { unit: "s", w: 8 },
      ),
      panel("p95 by route", [[quantile(0.95, m, sel, "http_route"), "{{http_route}}"]], { unit: "s", w: 24 }),
      ...rpcClientPanels("gateway"),
    ],
    { tags: ["service"] },
  );
}

for (const service of SERVICES) {
  dashboards[`service-${service}`] = dashboard(
    `crafter-service-${service}`,
    `Crafter / Service / ${service}`,
    [...rpcServerPanels(service), ...rpcClientPanels(service), ...eventPanels(service)],
    { tags: ["service"] },
  );
}

// Kafka and events across services.
dashboards.events = dashboard(
  "crafter-events",
  "Crafter / Kafka and events",
  [
    panel(
      "Published/s by topic",
      [[rate("crafter_events_published_total", "", "messaging_destination_name"), "{{messaging_destination_name}}"]],
      { unit: "ops" },
    ),
    panel(
      "Handled/s by group and outcome",
      [[rate("crafter_events_process_duration_seconds_count", "", "job, outcome"), "{{job}} {{outcome}}"]],
      { unit: "ops" },
    ),
    panel(
      "Consumer lag by group and topic",
      [
        [
          "max by (group, messaging_destination_name) (crafter_events_consumer_lag)",
          "{{group}} {{messaging_destination_name}}",
        ],
      ],
      { w: 8 },
    ),
    panel(
      "Handling p95 by type",
      [
        [
          quantile(0.95, "crafter_events_process_duration_seconds", "", "cloudevents_event_type"),
          "{{cloudevents_event_type}}",
        ],
      ],
      { unit: "s", w: 8 },
    ),
    panel(
      "Handling p99 by group",
      [[quantile(0.99, "crafter_events_process_duration_seconds", "", "job"), "{{job}}"]],
      { unit: "s", w: 8 },
    ),
    panel("Dead-lettered per 15 m by group and topic", [
      [
        "sum by (group, messaging_destination_name) (increase(crafter_events_dlq_total[15m]))",
        "{{group}} {{messaging_destination_name}}",
      ],
    ]),
    panel("Outbox backlog by service and collection", [
      ["max by (job, collection) (crafter_outbox_backlog)", "{{job}} {{collection}}"],
    ]),
  ],
  { tags: ["events"] },
);

// Business: sign-ups, crafts, generations, credits.
dashboards.business = dashboard(
  "crafter-business",
  "Crafter / Business",
  [
    stat("Sign-ups (24 h)", "sum(increase(crafter_signups_total[24h]))", { decimals: 0 }),
    stat("Crafts started (24 h)", "sum(increase(crafter_crafts_started_total[24h]))", { decimals: 0 }),
    stat("Generations (24 h)", 'sum(increase(crafter_generations_total{outcome="ok"}[24h]))', { decimals: 0 }),
    stat(
      "Credits spent (24 h)",
      "sum(increase(crafter_credits_spent_total[24h])) - (sum(increase(crafter_credits_refunded_total[24h])) or vector(0))",
      { decimals: 0 },
    ),
    panel("Sign-ups per hour", [["sum(increase(crafter_signups_total[1h]))", "sign-ups"]]),
    panel(
      "Crafts started per hour by workflow",
      [["sum by (workflow) (increase(crafter_crafts_started_total[1h]))", "{{workflow}}"]],
      { stack: true },
    ),
    panel(
      "Generations/s by workflow, engine and outcome",
      [[rate("crafter_generations_total", "", "workflow, engine, outcome"), "{{workflow}} {{engine}} {{outcome}}"]],
      { unit: "ops" },
    ),
    panel(
      "Generation latency p50 / p95 by engine",
      [
        [quantile(0.5, "crafter_generation_duration_seconds", "", "engine"), "p50 {{engine}}"],
        [quantile(0.95, "crafter_generation_duration_seconds", "", "engine"), "p95 {{engine}}"],
      ],
      { unit: "s" },
    ),
    panel(
      "Generation failure ratio by workflow",
      [
        [
          `${rate("crafter_generations_total", 'outcome="error"', "workflow")} / ${rate("crafter_generations_total", "", "workflow")}`,
          "{{workflow}}",
        ],
      ],
      {
        unit: "percentunit",
      },
    ),
    panel(
      "Credits spent per hour by reason",
      [["sum by (reason) (increase(crafter_credits_spent_total[1h]))", "{{reason}}"]],
      { stack: true },
    ),
  ],
  { tags: ["business"] },
);

const files = Object.fromEntries(
  Object.entries(dashboards).map(([name, json]) => [`${name}.json`, `${JSON.stringify(json, null, 2)}\n`]),
);
const committed = existsSync(out) ? readdirSync(out).filter((file) => file.endsWith(".json")) : [];
if (process.argv.includes("--check")) {
  const stale = [
    ...Object.entries(files)
      .filter(([file, text]) => !existsSync(join(out, file)) || readFileSync(join(out, file), "utf8") !== text)
      .map(([file]) => file),
    ...committed.filter((file) => !files[file]),
  ];
  if (stale.length > 0) {
    console.error(`deploy/grafana/dashboards: stale ${stale.join(", ")} (run node scripts/grafana-dashboards.mjs)`);
    process.exit(1);
  }
} else {
  mkdirSync(out, { recursive: true });
  for (const file of committed.filter((file) => !files[file])) rmSync(join(out, file));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(out, file), text);
  console.log(`wrote ${Object.keys(files).length} dashboards to ${out}`);
}
