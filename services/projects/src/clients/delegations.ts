import { timestampDate } from "@bufbuild/protobuf/wkt";
import { createServiceClient, type ServiceCredentials } from "@crafter/kit";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";

/** Auth's delegated tokens for team members. */
export interface Delegations {
  /** A token acting as the owner with the member's role, `act` and `pid` (auth's IssueDelegatedToken). */
  issue(input: {
    ownerUserId: string;
    memberUserId: string;
    memberEmail: string;
    projectId: string;
    role: string;
  }): Promise<{ accessToken: string; expiresAt: Date }>;
}

/** Auth's IssueDelegatedToken with the projects service's own token (auth admits only projects). */
export function createDelegations(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): Delegations {
  const client = createServiceClient(AuthService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async issue(input) {
      const response = await client.issueDelegatedToken(input);
      return {
        accessToken: response.accessToken,
        expiresAt: response.expiresAt ? timestampDate(response.expiresAt) : new Date(0),
      };
    },
  };
}
