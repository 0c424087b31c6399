import type { Logger } from "@crafter/kit";
import type { ProfileSource } from "../clients/profiles";
import type { DefinitionRegistry } from "../domain/registry";
import type { CraftEvents } from "../events/craft-events";
import type { TextEngine } from "../generation/text-engine";
import type { ActionLocks } from "../store/action-lock";
import type { CraftRepository } from "../store/craft.repository";

/** What the use cases work with; built once in main.ts. */
export interface WorkflowsDeps {
  crafts: CraftRepository;
  registry: DefinitionRegistry;
  engine: TextEngine;
  locks: ActionLocks;
  profiles: ProfileSource;
  events: CraftEvents;
  /** Asks the outbox relay to publish now (after a write that added events). */
  kick(): void;
  logger: Logger;
  now(): Date;
}
