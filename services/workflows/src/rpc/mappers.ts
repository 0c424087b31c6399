import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type CompleteStepResponseSchema,
  type CraftSchema,
  type CraftSummarySchema,
  WorkflowHeaderSchema,
} from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { HeadersView } from "../domain/registry";
import type { CraftSummaryView, CraftView } from "../domain/view";
import type { StepEvent } from "../usecases/complete-step";

export function toSummaryMessage(summary: CraftSummaryView): MessageInitShape<typeof CraftSummarySchema> {
  return {
    ...summary,
    createdAt: timestampFromDate(new Date(summary.createdAt)),
    updatedAt: timestampFromDate(new Date(summary.updatedAt)),
  };
}

export function toCraftMessage(craft: CraftView): MessageInitShape<typeof CraftSchema> {
  return {
    summary: toSummaryMessage(craft.summary),
    version: craft.version,
    profileId: craft.profileId,
    currentStep: craft.currentStep,
    steps: craft.steps,
  };
}

export function toHeadersMessage(view: HeadersView) {
  return { ...view, headers: view.headers.map((header) => create(WorkflowHeaderSchema, header)) };
}

/** A stream event as CompleteStep and RunAction send it (the two responses share their fields). */
export function toStepEventMessage(
  event: StepEvent,
): Omit<MessageInitShape<typeof CompleteStepResponseSchema>, "$typeName"> {
  switch (event.case) {
    case "started":
      return {
        event: {
          case: "started",
          value: { engine: event.value.engine, framework: event.value.framework, itemIndex: event.value.itemIndex },
        },
      };
    case "delta":
      return { event: { case: "delta", value: event.value } };
    case "completed":
      return {
        event: {
          case: "completed",
          value: { result: event.value.result, meta: event.value.meta, craft: toCraftMessage(event.value.craft) },
        },
      };
  }
}
