import { Code, ConnectError } from "@connectrpc/connect";
import { type Caller, createServiceClient, onBehalfOf } from "@crafter/kit";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
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
