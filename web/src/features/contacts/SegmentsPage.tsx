import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { App, Button, Card, Flex, Grid, Space, Table, Typography } from "antd";
import { Link } from "react-router-dom";
import { contactKeys, deleteSegment, itemsOf, useSegments } from "../../api/contacts";
import { queryOf, type Segment } from "../../api/contacts/types";
import { countLabel, formatNumber } from "../../shared/format";
import { LinkButton } from "../../shared/LinkButton";
import { EmptyState, ErrorState } from "../../shared/states";
import { TABLE_ACTIONS } from "../../shared/table";
import { useAction } from "../../shared/use-action";
import { AskPermissionButton } from "./AskPermission";
import { CONTACT_PAGES } from "./paths";
import { ruleCount } from "./segment-query";

/** /app/segments: the saved segments, each opening its builder. */
export default function SegmentsPage() {
  const { modal } = App.useApp();
  const { data, error, isLoading, mutate } = useSegments(true);
  const segments = itemsOf(data);
  const screens = Grid.useBreakpoint();
  const deletion = useAction(deleteSegment, {
    error: "Could not delete",
    success: "Segment deleted",
    revalidate: [contactKeys.segmentsWithCounts(), contactKeys.segments()],
  });

  const remove = (segment: Segment) =>
    modal.confirm({
      title: `Delete the segment ${segment.name}?`,
      content: "Its contacts stay; campaigns and automations that use it will no longer find it.",
      okText: "Delete",
      okButtonProps: { danger: true, "data-testid": "confirm-delete" },
      onOk: () => deletion.run(segment.id),
    });

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Segments
          </Typography.Title>
          <Typography.Text type="secondary">
            Groups of contacts by their fields, tags, consent and interactions
          </Typography.Text>
        </div>
        <LinkButton to={CONTACT_PAGES.segment("new")} type="primary" icon={<PlusOutlined />} data-testid="segments-new">
          New segment
        </LinkButton>
      </Flex>
      <Card>
        {error && !data ? (
          <ErrorState error={error} onRetry={() => void mutate()} title="We could not load your segments" />
        ) : !isLoading && segments.length === 0 ? (
          <EmptyState
            testId="segments-empty"
            description="No segments yet. Build one from conditions on your contacts."
            action={
              <LinkButton to={CONTACT_PAGES.segment("new")} type="primary">
                New segment
              </LinkButton>
            }
          />
        ) : (
          <Table<Segment>
            rowKey="id"
            loading={isLoading}
            dataSource={segments}
            pagination={false}
            scroll={{ x: "max-content" }}
            data-testid="segments-table"
            columns={[
              {
                title: "Name",
                key: "name",
                render: (_, segment) => (
                  <>
                    <Link to={CONTACT_PAGES.segment(segment.id)}>{segment.name}</Link>
                    {/* A phone has no room for the Contacts column: the count goes under the name. */}
                    {!screens.sm && <SegmentCount segment={segment} maxWidth={140} />}
                  </>
                ),
              },
              {
                title: "Conditions",
                key: "rules",
                responsive: ["sm"],
                render: (_, segment) => (segment.query ? ruleCount(queryOf(segment)) : ""),
              },
              {
                title: "Contacts",
                key: "count",
                responsive: ["sm"],
                render: (_, segment) => <SegmentCount segment={segment} />,
              },
              {
                title: "",
                key: "actions",
                // Actions stay in view while a phone scrolls the table sideways.
                fixed: "right",
                className: TABLE_ACTIONS,
                width: screens.sm ? 240 : 150,
                render: (_, segment) => (
                  <Space wrap>
                    {(segment.counts?.pending ?? 0) > 0 && (
                      <AskPermissionButton
                        size="small"
                        label="Ask"
                        title={`Ask ${segment.name}'s pending contacts for permission`}
                        aria-label={`Ask ${segment.name}'s pending contacts for permission`}
                        ask={{ segmentId: segment.id }}
                      />
                    )}
                    <LinkButton
                      to={`${CONTACT_PAGES.contacts}?segmentId=${encodeURIComponent(segment.id)}`}
                      size="small"
                    >
                      Contacts
                    </LinkButton>
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Delete ${segment.name}`}
                      onClick={() => remove(segment)}
                    />
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
    </Flex>
  );
}

/** "120 contacts" and, below, who of them a campaign would not reach. */
function SegmentCount({ segment, maxWidth = 240 }: { segment: Segment; maxWidth?: number }) {
  const counts = segment.counts;
  if (!counts) return null;
  const notReached = [
    counts.pending > 0 ? `${formatNumber(counts.pending)} pending` : "",
    counts.unsubscribed > 0 ? `${formatNumber(counts.unsubscribed)} unsubscribed` : "",
    counts.bounced + counts.complained > 0
      ? `${formatNumber(counts.bounced + counts.complained)} bounced or complained`
      : "",
  ].filter(Boolean);
  return (
    <div data-testid="segment-contacts">
      <Typography.Text>{countLabel(counts.total, "contact")}</Typography.Text>
      {notReached.length > 0 && (
        <div style={{ maxWidth, whiteSpace: "normal" }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {notReached.join(", ")}
          </Typography.Text>
        </div>
      )}
    </div>
  );
}
