import type { ApprovalStateName, ReviewKind } from "../../api/approvals";

/** The words and tag colour of each state. */
export const STATE_LABEL: Record<ApprovalStateName, { label: string; color: string }> = {
  none: { label: "Not shared", color: "default" },
  awaiting: { label: "Pending review", color: "processing" },
  approved: { label: "Approved", color: "success" },
  changes_requested: { label: "Changes requested", color: "warning" },
};

export const KIND_LABEL: Record<ReviewKind, string> = {
  comment: "commented",
  approved: "approved",
  changes_requested: "requested changes",
};
