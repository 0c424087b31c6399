import { isPublicAddress } from "@crafter/kit";
import { describe, expect, it } from "@jest/globals";
import { Webhook } from "standardwebhooks";
import {
  DELIVERY_ATTEMPTS,
  dayOf,
  deliverySummary,
  endpointUrlProblem,
  expiredDays,
  messageIdOf,
  payloadOf,
  retryDelayMs,
  secretHint,
  secretOf,
  shouldDisable,
} from "../src/domain/webhooks";

const pinned = (host: string) => host.endsWith(".crafter.test");
const problem = (url: string) => endpointUrlProblem(url, isPublicAddress, pinned);

describe("outgoing webhooks, the pure part", () => {
  it("makes Standard Webhooks secrets the library signs and verifies with", () => {
    const secret = secretOf(new Uint8Array(32).fill(9));
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretHint(secret)).toBe(`whsec_…${secret.slice(-4)}`);
    expect(() => secretOf(new Uint8Array(16))).toThrow();
    const body = payloadOf(
      { type: "webhook.test", projectId: "p1", data: { projectId: "p1", endpointId: "we_1", message: "hi" } },
      new Date("2026-11-28T05:00:00.000Z"),
    );
    expect(JSON.parse(body)).toEqual({
      type: "webhook.test",
      timestamp: "2026-11-28T05:00:00.000Z",
      data: { projectId: "p1", endpointId: "we_1", message: "hi" },
    });
    const at = new Date();
    const id = messageIdOf("1a11e908-a731-4bad-82ba-6119c86135bd");
    expect(id).toBe("msg_1a11e908-a731-4bad-82ba-6119c86135bd");
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, at, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("retries for a day: 5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h", () => {
    const waits = Array.from({ length: DELIVERY_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 2)!);
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000]);
    const total = waits.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(23 * 3_600_000);
    expect(total).toBeLessThanOrEqual(24 * 3_600_000);
    expect(retryDelayMs(DELIVERY_ATTEMPTS + 1)).toBeNull();
    expect(retryDelayMs(2, 0.001)).toBe(5);
  });

  it("refuses private addresses and local names unless pinned", () => {
    for (const url of [
      "http://127.0.0.1/x",
      "http://2130706433/x",
      "http://[::1]/x",
      "http://[::ffff:10.0.0.1]/x",
      "http://192.168.1.10/x",
      "http://169.254.169.254/x",
      "http://localhost:8080/x",
      "http://api.localhost/x",
      "http://nas.local/x",
      "http://intranet/x",
      "ftp://example.com/x",
      "https://user:pw@example.com/x",
      "not a url",
    ])
      expect({ url, problem: problem(url) }).toEqual({ url, problem: expect.any(String) });
    expect(problem("https://hooks.zapier.com/hooks/standard/1/abc")).toBeNull();
    expect(problem("http://93.184.216.34/hook")).toBeNull();
    expect(problem("http://hooks.crafter.test:4000/ok")).toBeNull();
  });

  it("reads a delivery's status from its attempts", () => {
    const t = (s: number) => new Date(Date.UTC(2026, 10, 28, 5, 0, s));
    const fail = (s: number, final = false) => ({ ok: false, responseCode: 500, error: "HTTP 500", at: t(s), final });
    expect(deliverySummary([])).toMatchObject({ status: "pending", attempts: 0, lastAttemptAt: null });
    expect(deliverySummary([fail(1)])).toMatchObject({ status: "pending", attempts: 1, responseCode: 500 });
    expect(deliverySummary([fail(2, true), fail(1)])).toMatchObject({ status: "failed", error: "HTTP 500" });
    const ok = { ok: true, responseCode: 204, error: "", at: t(3), final: false };
    expect(deliverySummary([fail(1), ok])).toMatchObject({ status: "succeeded", responseCode: 204, error: "" });
  });

  it("turns an endpoint off after a day of failures, or too many in a row", () => {
    const since = new Date("2026-11-27T05:00:00Z");
    const first = new Date("2026-11-27T05:00:00Z");
    expect(shouldDisable({ count: 8, since }, { final: true, firstAttemptAt: first }, 100)).toBe(true);
    // A success after this delivery began: the receiver works sometimes.
    expect(
      shouldDisable({ count: 3, since: new Date("2026-11-28T01:00:00Z") }, { final: true, firstAttemptAt: first }, 100),
    ).toBe(false);
    expect(shouldDisable({ count: 5, since }, { final: false, firstAttemptAt: null }, 100)).toBe(false);
    expect(shouldDisable({ count: 100, since }, { final: false, firstAttemptAt: null }, 100)).toBe(true);
  });

  it("expires the log by whole UTC days past the days kept", () => {
    const now = new Date("2026-11-28T00:30:00Z");
    expect(dayOf(new Date("2026-11-27T23:59:59.999Z"))).toBe("2026-11-27");
    const days = expiredDays(now, 30, 3);
    expect(days).toEqual(["2026-10-28", "2026-10-27", "2026-10-26"]);
    expect(expiredDays(now, 30)).not.toContain(dayOf(new Date(now.getTime() - 30 * 86_400_000)));
  });
});
