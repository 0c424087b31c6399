import { Flex, Tag, Typography } from "antd";
import type { ConsentAskTarget, ConsentCounts } from "../../api/contacts/types";
import { formatNumber } from "../../shared/format";
import { AskPermissionButton } from "./AskPermission";

const STATUSES = [
  { key: "subscribed", label: "Subscribed" },
  { key: "pending", label: "Pending" },
  { key: "unsubscribed", label: "Unsubscribed" },
  { key: "bounced", label: "Bounced" },
  { key: "complained", label: "Complained" },
] as const;

/**
 * The contacts table's consent bar: how many of the listed contacts are subscribed (what campaigns
 * reach), pending (no opt-in yet) and unsubscribed; each is a filter, and the pending ones can be
 * asked for permission. Bounced and complained show only when there are any.
 */
export function ConsentSummary({
  counts,
  active,
  onFilter,
  askTarget,
}: {
  counts: ConsentCounts;
  active: string | undefined;
  onFilter: (consent: string | undefined) => void;
  askTarget: ConsentAskTarget;
}) {
  return (
    <Flex wrap gap={8} align="center" data-testid="consent-summary" role="group" aria-label="Filter by consent">
      <Tag.CheckableTag checked={!active} onChange={() => onFilter(undefined)} data-testid="consent-filter-all">
        All {formatNumber(counts.total)}
      </Tag.CheckableTag>
      {STATUSES.filter(({ key }) => (key !== "bounced" && key !== "complained" ? true : counts[key] > 0)).map(
        ({ key, label }) => (
          <Tag.CheckableTag
            key={key}
            checked={active === key}
            onChange={(checked) => onFilter(checked ? key : undefined)}
            data-testid={`consent-filter-${key}`}
          >
            {label} {formatNumber(counts[key])}
          </Tag.CheckableTag>
        ),
      )}
      {counts.pending > 0 && (
        <>
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            Pending contacts get no campaigns until they confirm.
          </Typography.Text>
          <AskPermissionButton size="small" ask={askTarget} />
        </>
      )}
    </Flex>
  );
}
