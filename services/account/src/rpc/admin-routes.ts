import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { callerOf, requireUser } from "@crafter/kit";
import { AdminService } from "@crafter/proto/crafter/account/v1/admin_pb";
import type { AccountDeps } from "../deps";
import { getFlagStates, getStats, grantCredits, listAudit, listUsers, setFlag } from "../usecases/admin";

/** crafter.account.v1.AdminService: thin handlers; the use cases check the role. */
export function adminRoutes(deps: AccountDeps): (router: ConnectRouter) => void {
  const adminOf = (ctx: HandlerContext) => ({ ...callerOf(ctx), email: requireUser(ctx).email });
  return (router) =>
    router.service(AdminService, {
      async listUsers(req, ctx) {
        const { users, count } = await listUsers(deps, callerOf(ctx), req);
        return {
          users: users.map((user) => ({ ...user, createdAt: timestampFromDate(user.createdAt) })),
          count,
        };
      },
      async grantCredits(req, ctx) {
        return grantCredits(deps, adminOf(ctx), req);
      },
      async getFlags(req, ctx) {
        return { flags: await getFlagStates(deps, callerOf(ctx), req) };
      },
      async setFlag(req, ctx) {
        await setFlag(deps, adminOf(ctx), req);
        return {};
      },
      async listAudit(req, ctx) {
        const { entries, count } = await listAudit(deps, callerOf(ctx), req);
        return {
          entries: entries.map((entry) => ({
            id: entry._id,
            actorId: entry.actorId,
            actorEmail: entry.actorEmail,
            action: entry.action,
            targetUserId: entry.targetUserId,
            details: entry.details,
            at: timestampFromDate(new Date(entry.at)),
          })),
          count,
        };
      },
      async getStats(req, ctx) {
        const stats = await getStats(deps, callerOf(ctx), req);
        return {
          days: stats.days.map((day) => ({ ...day, mrrCents: BigInt(day.mrrCents) })),
          totalUsers: stats.totalUsers,
        };
      },
    });
}
