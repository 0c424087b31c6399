import { rpcAccess } from "@crafter/kit";
import { ApprovalsService } from "@crafter/proto/crafter/notifications/v1/approvals_pb";

/**
 * Who may call each ApprovalsService RPC: a user (or a member's delegated token) for their own
 * links; the reviewer's side only through the gateway, whose public routes are rate-limited.
 */
export const approvalsAccess = rpcAccess(ApprovalsService, {
  createApprovalLink: ["user"],
  listApprovals: ["user"],
  revokeApprovalLink: ["user"],
  listApprovalStates: ["user"],
  getReview: ["service:gateway"],
  addReviewEvent: ["service:gateway"],
});
