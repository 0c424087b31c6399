import type { OutboxModel } from "@crafter/kit";
import type { Connection } from "mongoose";
import { AiSettingsRepository, aiSettingsModel } from "./ai-settings.repository";
import { CraftRepository } from "./craft.repository";
import { craftModel } from "./craft.schema";
import { PageRepository, pageModel } from "./page.repository";

/** Every repository of the workflows service, over its own database. */
export interface WorkflowsStores {
  crafts: CraftRepository;
  /** Each user's own AI provider (the AI settings page). */
  aiSettings: AiSettingsRepository;
  /** Pages published from crafts, by slug. */
  pages: PageRepository;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: OutboxModel[];
}

export async function createStores(connection: Connection): Promise<WorkflowsStores> {
  const crafts = craftModel(connection);
  return {
    crafts: new CraftRepository(crafts),
    aiSettings: new AiSettingsRepository(aiSettingsModel(connection)),
    pages: new PageRepository(pageModel(connection)),
    outbox: [crafts],
  };
}
