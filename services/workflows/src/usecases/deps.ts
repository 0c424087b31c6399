import type { Logger } from "@crafter/kit";
import type { ProfileSource } from "../clients/profiles";
import type { CreditsPort } from "../domain/credits";
import type { DefinitionRegistry } from "../domain/registry";
import type { CraftEvents } from "../events/craft-events";
import type { FunctionRegistry } from "../functions/types";
import type { TextEngine } from "../generation/text-engine";
import type { ActionLocks } from "../store/action-lock";
import type { CraftRepository } from "../store/craft.repository";

/** What the use cases work with; built once in main.ts. */
export interface WorkflowsDeps {
  crafts: CraftRepository;
  registry: DefinitionRegistry;
  engine: TextEngine;
  /** The functions of FunctionCaller actions (src/functions). */
  functions: FunctionRegistry;
  /** Billing; undefined when no billing service is configured (generation is then free). */
  credits: CreditsPort | undefined;
  locks: ActionLocks;
  profiles: ProfileSource;
  events: CraftEvents;
  /** Asks the outbox relay to publish now (after a write that added events). */
  kick(): void;
  logger: Logger;
  now(): Date;
}
