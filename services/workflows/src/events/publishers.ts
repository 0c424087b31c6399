import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import {
  CraftCompletedSchema,
  CraftCreatedSchema,
  GenerationUsedSchema,
} from "@crafter/proto/crafter/events/v1/events_pb";
import type { TokenUsage } from "../domain/types";

/** Builds the events of the craft aggregate (topic `<ns>.workflows.craft.v1`, key = craft id). */
export class CraftEvents {
  readonly topic: string;

  constructor(namespace: string) {
    this.topic = topicName(namespace, TOPICS.workflowsCraft);
  }

  created(craft: {
    id: string;
    userId: string;
    projectId: string;
    workflowName: string;
    profileId?: string;
  }): OutboxEntry {
    return outboxEntry(this.topic, craft.id, CraftCreatedSchema, {
      userId: craft.userId,
      craftId: craft.id,
      projectId: craft.projectId,
      workflowName: craft.workflowName,
      profileId: craft.profileId ?? "",
    });
  }

  completed(craft: { id: string; userId: string; projectId: string; workflowName: string }): OutboxEntry {
    return outboxEntry(this.topic, craft.id, CraftCompletedSchema, {
      userId: craft.userId,
      craftId: craft.id,
      projectId: craft.projectId,
      workflowName: craft.workflowName,
    });
  }

  generationUsed(
    craft: { id: string; userId: string; workflowName: string },
    stepName: string,
    engine: string,
    usage: TokenUsage,
  ): OutboxEntry {
    return outboxEntry(this.topic, craft.id, GenerationUsedSchema, {
      userId: craft.userId,
      craftId: craft.id,
      workflowName: craft.workflowName,
      stepName,
      engine,
      inputTokens: Math.min(usage.inputTokens, 2 ** 31 - 1),
      outputTokens: Math.min(usage.outputTokens, 2 ** 31 - 1),
    });
  }
}
