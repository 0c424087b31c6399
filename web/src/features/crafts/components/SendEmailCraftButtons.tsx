import { BranchesOutlined, SendOutlined } from "@ant-design/icons";
import type { Craft } from "../../../api/types";
import { LinkButton } from "../../../shared/LinkButton";
import { EMAIL_WRITER } from "../links";

/** Where a finished email craft goes next: a campaign's composer or a new automation's email step, with it chosen. */
export function emailCraftLinks(craftId: string) {
  const query = `craftId=${encodeURIComponent(craftId)}`;
  return { campaign: `/app/email/campaigns/new?${query}`, automation: `/app/automation/new?${query}` };
}

/** "Send as campaign" and "Use in automation" on a completed EmailWriter craft; nothing otherwise. */
export function SendEmailCraftButtons({ craft }: { craft: Pick<Craft, "craftId" | "workflowName" | "state"> }) {
  if (craft.workflowName !== EMAIL_WRITER || craft.state !== "Completed" || !craft.craftId) return null;
  const links = emailCraftLinks(craft.craftId);
  return (
    <>
      <LinkButton to={links.campaign} type="primary" icon={<SendOutlined />} data-testid="craft-send-campaign">
        Send as campaign
      </LinkButton>
      <LinkButton to={links.automation} icon={<BranchesOutlined />} data-testid="craft-use-automation">
        Use in automation
      </LinkButton>
    </>
  );
}
