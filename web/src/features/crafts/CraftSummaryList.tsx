import { FileTextOutlined } from "@ant-design/icons";
import { Flex, Tag, Typography } from "antd";
import { Link } from "react-router-dom";
import { useApprovalStates } from "../../api/approvals";
import type { CraftSummary } from "../../api/types";
import { formatDateTime, humanize } from "../../shared/format";
import { ApprovalStateTag } from "../approvals/ApprovalPanel";
import { CraftActions } from "./components/CraftActions";
import { craftHref, stateTag } from "./links";

/**
 * Rows of craft summaries, each a link to its craft page, with favorite / clone / delete; each shows
 * the date the list is sorted by (`dateField`, creation unless told) and its approval state once
 * shared (one request for the rows shown).
 */
export function CraftSummaryList({
  crafts,
  testId = "craft-list",
  actions = true,
  dateField = "created",
}: {
  crafts: CraftSummary[];
  testId?: string;
  actions?: boolean;
  dateField?: "created" | "updated";
}) {
  const approvals = useApprovalStates(
    "craft",
    crafts.map((c) => c.craftId),
    crafts.find((c) => c.projectId)?.projectId || undefined,
  );
  return (
    <ul className="crafter-craft-list" data-testid={testId} aria-label="Crafts">
      {crafts.map((craft) => {
        const tag = stateTag(craft.state);
        return (
          <li
            key={craft.craftId}
            className="crafter-craft-list__item"
            data-testid="craft-row"
            data-craft-id={craft.craftId}
          >
            <Flex align="center" gap={12} wrap>
              <FileTextOutlined aria-hidden className="crafter-craft-list__icon" />
              <Flex vertical style={{ flex: "1 1 220px", minWidth: 0 }}>
                <Link to={craftHref(craft)} className="crafter-craft-list__name" data-testid="craft-link">
                  {craft.craftName || "Untitled craft"}
                </Link>
                <Typography.Text type="secondary" className="crafter-craft-list__meta" data-testid="craft-date">
                  {humanize(craft.workflowName)} ·{" "}
                  {dateField === "updated"
                    ? `updated ${formatDateTime(craft.updatedAt || craft.createdAt)}`
                    : `created ${formatDateTime(craft.createdAt)}`}
                </Typography.Text>
              </Flex>
              <ApprovalStateTag state={approvals.byId.get(craft.craftId)} />
              <Tag color={tag.color}>{tag.label}</Tag>
              {actions && <CraftActions craft={craft} compact />}
            </Flex>
          </li>
        );
      })}
    </ul>
  );
}
