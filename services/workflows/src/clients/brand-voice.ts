import { appError, type Caller, createServiceClient, describeError, onBehalfOf } from "@crafter/kit";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import type { BrandVoice } from "../domain/brand-voice";

/** Where a craft's brand voice comes from: its project, read on behalf of the caller. */
export interface BrandVoiceSource {
  /**
   * The brand voice of `projectId`, or null for a craft without a project (tools, smart documents)
   * or a project that is gone. @throws the projects service's outage (UNAVAILABLE): a draft must
   * not be written without the words the business avoids.
   */
  get(caller: Pick<Caller, "token" | "signal">, projectId: string): Promise<BrandVoice | null>;
}

export function projectsBrandVoiceSource(baseUrl: string, timeoutMs: number): BrandVoiceSource {
  const client = createServiceClient(ProjectsService, baseUrl, { timeoutMs });
  return {
    async get(caller, projectId) {
      if (!projectId) return null;
      try {
        const { brandVoice } = await client.getBrandVoice({ projectId }, onBehalfOf(caller));
        if (!brandVoice) return null;
        return {
          tone: brandVoice.tone,
          wordsToUse: [...brandVoice.wordsToUse],
          wordsToAvoid: [...brandVoice.wordsToAvoid],
          exampleCopy: brandVoice.exampleCopy,
        };
      } catch (error) {
        const described = describeError(error);
        if (described.code === "NOT_FOUND") return null;
        throw appError(described.code === "InternalServerError" ? "UNAVAILABLE" : described.code, described.message);
      }
    },
  };
}
