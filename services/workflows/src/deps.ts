import type { Logger } from "@crafter/kit";
import type { ProfileSource } from "./clients/profiles";
import type { CreditsPort } from "./domain/credits";
import type { DefinitionRegistry } from "./domain/registry";
import type { CraftEvents } from "./events/publishers";
import type { FunctionRegistry } from "./functions/types";
import type { TextEngine } from "./generation/text-engine";
import type { WorkflowsStores } from "./store";
import type { ActionLocks } from "./store/action-lock";

/** The other services the use cases call. */
export interface WorkflowsClients {
  /** Billing: debits before generation, refunds when it fails. */
  credits: CreditsPort;
  /** Projects: the profile a craft prefills from, read on behalf of the caller. */
  profiles: ProfileSource;
}

/** What the workflows use cases need; built once in main.ts. */
export interface WorkflowsDeps {
  stores: WorkflowsStores;
  clients: WorkflowsClients;
  /** One running action per craft (Redis). */
  locks: ActionLocks;
  registry: DefinitionRegistry;
  engine: TextEngine;
  /** The functions of FunctionCaller actions (src/functions). */
  functions: FunctionRegistry;
  /** Builders of the craft events (`<ns>.workflows.craft.v1`). */
  events: CraftEvents;
  /** Wakes the outbox relay after a write that added events. */
  kick: () => void;
  logger: Logger;
  now: () => Date;
}
