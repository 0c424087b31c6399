import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { badRequest } from "@crafter/kit";
import {
  type AiSettingsSchema,
  type CompleteStepResponseSchema,
  type CraftSchema,
  type CraftSummarySchema,
  type SaveActionResultRequest,
  WorkflowHeaderSchema,
} from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { HeadersView } from "../domain/registry";
import type { ResultChange } from "../domain/results";
import type { CraftSummaryView, CraftView } from "../domain/view";
import type { AiSettingsView } from "../usecases/ai-settings";
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
  return {
    ...view,
    headers: view.headers.map(({ new: isNew, ...header }) => create(WorkflowHeaderSchema, { ...header, isNew })),
  };
}

/**
 * The change of a SaveActionResult request; `sections` must map keys to lists of strings.
 * @throws CR_ERR_BAD_REQUEST for sections of another shape.
 */
export function toResultChange(req: SaveActionResultRequest): ResultChange {
  let sections: Record<string, string[]> | undefined;
  if (req.sections) {
    sections = {};
    for (const [key, items] of Object.entries(req.sections)) {
      if (!Array.isArray(items) || items.some((item) => typeof item !== "string")) {
        throw badRequest({ sections: "Each section must be a list of texts." });
      }
      sections[key] = items as string[];
    }
  }
  return compactChange({
    resultId: req.resultId.trim() || undefined,
    content: req.content,
    sections,
    data: req.data,
    selected: req.selected,
    delete: req.delete || undefined,
  });
}

function compactChange(change: ResultChange): ResultChange {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as ResultChange;
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

/** The AI settings as the page sees them (no key, see usecases/ai-settings.ts). */
export function toAiSettingsMessage(view: AiSettingsView): MessageInitShape<typeof AiSettingsSchema> {
  return {
    provider: view.provider,
    baseUrl: view.baseUrl,
    defaultModel: view.defaultModel,
    workflowModels: view.workflowModels,
    keySet: view.keySet,
    keyLast4: view.keyLast4,
    updatedAt: timestampFromDate(view.updatedAt),
  };
}
