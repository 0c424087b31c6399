import type { Client, Interceptor } from "@connectrpc/connect";
import { createServiceClient } from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { Config } from "./config";

export interface Clients {
  auth: Client<typeof AuthService>;
  account: Client<typeof AccountService>;
  projects: Client<typeof ProjectsService>;
  workflows: Client<typeof WorkflowsService>;
  billing: Client<typeof BillingService>;
}

/** Marks calls to auth as the gateway's, so auth trusts the client IP they name (interim, see auth config). */
function gatewayProof(secret: string | undefined): Interceptor[] {
  if (!secret) return [];
  return [
    (next) => (req) => {
      req.header.set("x-crafter-gateway", secret);
      return next(req);
    },
  ];
}

export function createClients(config: Config): Clients {
  const options = { timeoutMs: config.RPC_TIMEOUT_MS };
  return {
    auth: createServiceClient(AuthService, config.AUTH_URL, {
      ...options,
      interceptors: gatewayProof(config.GATEWAY_AUTH_SECRET),
    }),
    account: createServiceClient(AccountService, config.ACCOUNT_URL, options),
    projects: createServiceClient(ProjectsService, config.PROJECTS_URL, options),
    workflows: createServiceClient(WorkflowsService, config.WORKFLOWS_URL, options),
    billing: createServiceClient(BillingService, config.BILLING_URL, options),
  };
}
