import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { type CustomDomainSchema, CustomDomainsService } from "@crafter/proto/crafter/projects/v1/custom_domains_pb";
import type { ProjectsDeps } from "../deps";
import type { CustomDomainRecord } from "../store/custom-domain.repository";
import {
  addCustomDomain,
  checkCustomDomain,
  getCustomDomain,
  removeCustomDomain,
  resolveCustomDomain,
} from "../usecases/custom-domains";
import { timestamp } from "./mappers";

function toMessage(domain: CustomDomainRecord): MessageInitShape<typeof CustomDomainSchema> {
  return {
    domain: domain.domain,
    status: domain.status,
    records: domain.records.map((record) => ({ ...record, found: [...record.found] })),
    problem: domain.problem,
    checkedAt: domain.checkedAt ? timestamp(domain.checkedAt) : undefined,
    verifiedAt: domain.verifiedAt ? timestamp(domain.verifiedAt) : undefined,
    createdAt: timestamp(domain.createdAt),
  };
}

/** crafter.projects.v1.CustomDomainsService: a project's custom domain and the gateway's lookup. */
export function customDomainsRoutes(deps: ProjectsDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(CustomDomainsService, {
      getCustomDomain: async (req, ctx) => {
        const domain = await getCustomDomain(deps, callerOf(ctx), req);
        return domain ? { customDomain: toMessage(domain) } : {};
      },
      addCustomDomain: async (req, ctx) => ({
        customDomain: toMessage(await addCustomDomain(deps, callerOf(ctx), req)),
      }),
      checkCustomDomain: async (req, ctx) => ({
        customDomain: toMessage(await checkCustomDomain(deps, callerOf(ctx), req)),
      }),
      removeCustomDomain: async (req, ctx) => {
        await removeCustomDomain(deps, callerOf(ctx), req);
        return {};
      },
      resolveCustomDomain: async (req) => {
        const domain = await resolveCustomDomain(deps, req);
        return { domain: domain.domain, projectId: domain.projectId, userId: domain.userId };
      },
    });
  };
}
