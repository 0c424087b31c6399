import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { PagesService, type PublishedPageSchema } from "@crafter/proto/crafter/workflows/v1/pages_pb";
import type { WorkflowsDeps } from "../deps";
import type { PublishedPageRecord } from "../store/page.repository";
import {
  getCraftPage,
  getPublishedPage,
  listMyProjectPages,
  listProjectPages,
  publishPage,
  unpublishPage,
} from "../usecases/publish-page";

function toPageMessage(page: PublishedPageRecord): MessageInitShape<typeof PublishedPageSchema> {
  return {
    slug: page.slug,
    craftId: page.craftId,
    projectId: page.projectId,
    title: page.title,
    description: page.description,
    html: page.html,
    businessName: page.businessName,
    publishedAt: timestampFromDate(page.publishedAt),
    updatedAt: timestampFromDate(page.updatedAt),
  };
}

/** crafter.workflows.v1.PagesService: pages published from crafts. */
export function pagesRoutes(deps: WorkflowsDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(PagesService, {
      publishPage: async (req, ctx) => ({ page: toPageMessage(await publishPage(deps, callerOf(ctx), req)) }),
      unpublishPage: async (req, ctx) => ({ unpublished: await unpublishPage(deps, callerOf(ctx), req) }),
      getCraftPage: async (req, ctx) => {
        const page = await getCraftPage(deps, callerOf(ctx), req);
        return page ? { page: toPageMessage(page) } : {};
      },
      // Public: anyone may read what is published at `/<slug>`.
      getPublishedPage: async (req) => ({ page: toPageMessage(await getPublishedPage(deps, req)) }),
      listProjectPages: async (req) => ({ pages: (await listProjectPages(deps, req)).map(toPageMessage) }),
      listMyProjectPages: async (req, ctx) => ({
        pages: (await listMyProjectPages(deps, callerOf(ctx), req)).map((page) => ({
          slug: page.slug,
          craftId: page.craftId,
          title: page.title,
          publishedAt: timestampFromDate(page.publishedAt),
        })),
      }),
    });
  };
}
