import { Code, ConnectError } from "@connectrpc/connect";
import type { DraftStep } from "@crafter/email-language";
import { type Caller, createServiceClient, onBehalfOf } from "@crafter/kit";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { EmailCraftsPort } from "../deps";
import type { CraftSource } from "../domain/calendar-ports";

/** The workflows service's crafts, asked on behalf of the calling user (their token is forwarded). */
export function workflowsCraftSource(baseUrl: string, timeoutMs: number): CraftSource {
  const client = createServiceClient(WorkflowsService, baseUrl, { timeoutMs });
  return {
    async craft(caller: Caller, craftId: string) {
      try {
        const { craft } = await client.getCraft({ craftId }, onBehalfOf(caller));
        const summary = craft?.summary;
        if (!summary) return null;
        return {
          craftId: summary.craftId,
          name: summary.craftName,
          workflowName: summary.workflowName,
          projectId: summary.projectId,
        };
      } catch (error) {
        const code = ConnectError.from(error).code;
        if (code === Code.NotFound || code === Code.InvalidArgument || code === Code.PermissionDenied) return null;
        throw error;
      }
    },
  };
}

/** The caller's crafts with their steps (results included), for a campaign sent from an email craft. */
export function workflowsEmailCrafts(baseUrl: string, timeoutMs: number): EmailCraftsPort {
  const client = createServiceClient(WorkflowsService, baseUrl, { timeoutMs });
  return {
    async craft(caller: Caller, craftId: string) {
      try {
        const { craft } = await client.getCraft({ craftId }, onBehalfOf(caller));
        if (!craft?.summary) return null;
        return {
          craftId: craft.summary.craftId,
          name: craft.summary.craftName,
          workflowName: craft.summary.workflowName,
          steps: craft.steps as DraftStep[],
          projectId: craft.summary.projectId,
        };
      } catch (error) {
        const code = ConnectError.from(error).code;
        if (code === Code.NotFound || code === Code.InvalidArgument || code === Code.PermissionDenied) return null;
        throw error;
      }
    },
  };
}
