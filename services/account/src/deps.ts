import type { Logger } from "@crafter/kit";
import type { AccountStores } from "./store";

/** What the account use cases need; built once in main.ts. */
export interface AccountDeps {
  stores: AccountStores;
  logger: Logger;
  now: () => Date;
}
