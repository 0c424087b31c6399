import type { GatewaySession } from "@crafter/kit/testing";
import { expect } from "@jest/globals";

/** The gateway's craft routes (workflows v2). */
export const W = "/api/workflowsV2";

/**
 * Completes `stepName` of the craft with the form `values` (PUT `<W>/<craftId>/step/complete`),
 * expecting 200 (the failure names the step), and returns the craft as it answered.
 */
export async function complete(
  session: GatewaySession,
  craftId: string,
  stepName: string,
  values: Record<string, unknown>,
) {
  const done = await session.put(`${W}/${craftId}/step/complete`, { stepName, values });
  expect(`${stepName} ${done.status}`).toBe(`${stepName} 200`);
  return done.body.result.craft;
}

/** A craft step as the gateway answers it (results as the step's action wrote them). */
export interface CraftStep {
  name: string;
  status: string;
  state: string;
  results: any[];
}

/** The step named `name` of a craft (it must exist). */
export const stepOf = (craft: { steps: CraftStep[] }, name: string): CraftStep =>
  craft.steps.find((step) => step.name === name)!;
