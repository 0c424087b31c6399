import { gatewayUrl, stackEnv } from "@crafter/kit/testing";
import { expect, it, jest } from "@jest/globals";
// @ts-expect-error: a plain ES module script without types
import { signedInCookie, sweep } from "../../../scripts/security/sweep.mjs";

// The bad-input sweep (scripts/security/sweep.mjs; the full run is the `sweep` suite of
// scripts/test-stack.sh) on a representative subset: a route of each family with path
// parameters, a query and each kind of body. Every answer is a 4xx or success in the envelope.

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
    ]),
  );
  expect(result.byClass["percent-escape"].statuses).toEqual({ 400: result.byClass["percent-escape"].sent });
  expect(result.failures).toEqual([]);
  expect([result.serverErrors, result.envelopeMisses]).toEqual([0, 0]);
});
