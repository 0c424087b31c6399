import { ClockCircleOutlined } from "@ant-design/icons";
import { Card, Flex, Tag, Typography } from "antd";
import { Link } from "react-router-dom";
import type { WorkflowHeader } from "../../api/types";
import { newCraftHref, newStandaloneHref } from "../crafts/links";

/** A workflow to start: a link card when available, a muted "Coming soon" card otherwise. */
export function WorkflowCard({ header, isNew }: { header: WorkflowHeader; isNew?: boolean }) {
  const title = header.title || header.name;
  const body = (
    <Card
      size="small"
      hoverable={header.available}
      className={header.available ? "crafter-workflow-card" : "crafter-workflow-card crafter-workflow-card--coming"}
      data-testid="workflow-card"
      data-workflow={header.name}
      data-available={header.available ? "true" : "false"}
      title={
        <Flex gap={8} align="center" wrap>
          <span>{title}</span>
          {(isNew || header.new) && <Tag color="magenta">New</Tag>}
          {!header.available && <Tag icon={<ClockCircleOutlined />}>Coming soon</Tag>}
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ margin: 0 }}>
        {header.description || "—"}
      </Typography.Paragraph>
    </Card>
  );
  if (!header.available) return <div aria-disabled="true">{body}</div>;
  return (
    <Link
      to={header.standalone ? newStandaloneHref(header.name) : newCraftHref(header.name)}
      aria-label={`Start ${title}`}
      className="crafter-workflow-link"
    >
      {body}
    </Link>
  );
}
