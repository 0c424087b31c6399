import type { Logger } from "@crafter/kit";
import type { CreditGrants } from "./clients/billing";
import type { AccountStores } from "./store";

/** What the account use cases need; built once in main.ts. */
export interface AccountDeps {
  stores: AccountStores;
  logger: Logger;
  now: () => Date;
  /** Billing's ledger, for admin grants. */
  grants: CreditGrants;
  /** Marks a user's cached gateway views stale (kit bumpViewVersion), after a change made for them. */
  changed: (userId: string) => Promise<void>;
}
