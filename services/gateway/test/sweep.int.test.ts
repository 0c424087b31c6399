import { gatewayUrl, stackEnv } from "@crafter/kit/testing";
import { expect, it, jest } from "@jest/globals";
// @ts-expect-error: a plain ES module script without types
import { signedInCookie, sweep } from "../../../scripts/security/sweep.mjs";

// The bad-input sweep (scripts/security/sweep.mjs; the full run is the `sweep` suite of
// scripts/test-stack.sh) on a representative subset: a route of each family with path
// parameters, a query and each kind of body. Every answer is a 4xx or success in the envelope, or
// exactly what its class requires.

jest.setTimeout(180_000);

it("sees no 5xx and no answer outside the envelope", async () => {
  const base = gatewayUrl();
  const cookie = await signedInCookie(base, stackEnv().MAILPIT_API_URL ?? "http://127.0.0.1:8025");
  const result = await sweep({
    base,
    cookie,
    only: /^(POST \/auth\/signin|GET \/api\/workflowsV2|PUT \/api\/workflowsV2\/\{id\}(\/step\/complete)?|POST \/api\/workflowsV2\/\{id\}\/\{stepName\}\/\{actionType\}|PUT \/api\/workflowsV2\/\{id\}\/\{stepName\}\/saveOrUpdateActionResult|PUT \/api\/userSettings\/settings|POST \/api\/projects\/createProject|GET \/api\/projects\/check-list\/\{id\})$/,
  });
  expect(result.sent).toBeGreaterThan(300);
  // Every class was sent, and bad input was refused rather than ignored.
  expect(Object.keys(result.byClass)).toEqual(
    expect.arrayContaining([
      "charset",
      "content-encoding",
      "gzip-not-gzip",
      "percent-escape",
      "query",
      "big-string",
      "deep-field",
      "deep-json",
      "too-large",
      "unknown-path",
      "control-char",
      "method",
      "no-credentials",
    ]),
  );
  // One check in the gateway for every route: a control character is a 400, OPTIONS a 204 with
  // Allow, TRACE a 405, and a write without credentials a 401 (each class's rule is in the sweep).
  expect(result.byClass["control-char"].statuses).toEqual({ 400: result.byClass["control-char"].sent });
  expect(result.byClass["no-credentials"].statuses).toEqual({ 401: result.byClass["no-credentials"].sent });
  expect(Object.keys(result.byClass.method.statuses).sort()).toEqual(["204", "405"]);
  expect(result.byClass["percent-escape"].statuses).toEqual({ 400: result.byClass["percent-escape"].sent });
  expect(result.failures).toEqual([]);
  expect([result.serverErrors, result.envelopeMisses]).toEqual([0, 0]);
});
