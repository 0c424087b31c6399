import { BellOutlined } from "@ant-design/icons";
import { Badge, Button, Empty, Flex, List, Popover, Typography } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { type InboxNotification, useInbox, useInboxWrites } from "../../api/inbox";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { ago, badgeCount } from "./inbox-logic";

const LEVEL_COLOR: Record<InboxNotification["level"], string> = {
  info: "#1677ff",
  success: "#52c41a",
  warning: "#faad14",
  error: "#ff4d4f",
};

/** The header's bell: unread count, the newest notifications, mark read / all read, links. */
export function Bell() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { data, error, isLoading, mutate } = useInbox();
  const writes = useInboxWrites();
  const unread = data?.meta.unread ?? 0;

  const openOne = (n: InboxNotification) => {
    if (!n.read) void writes.markRead(n.id).catch((err) => notify.error(err, "Could not mark it read"));
    if (n.link) {
      setOpen(false);
      navigate(n.link);
    }
  };

  const content = (
    <div style={{ width: "min(360px, calc(100vw - 32px))" }} data-testid="inbox-panel">
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Text strong>Notifications</Typography.Text>
        <Button
          type="link"
          size="small"
          disabled={unread === 0}
          onClick={() => writes.markAllRead().catch((err) => notify.error(err, "Could not mark them read"))}
          data-testid="inbox-read-all"
        >
          Mark all read
        </Button>
      </Flex>
      {error && !data ? (
        <ErrorState error={error} onRetry={() => mutate()} title="We could not load your notifications" />
      ) : isLoading && !data ? (
        <LoadingBlock rows={3} />
      ) : (data?.result.length ?? 0) === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No notifications yet" data-testid="inbox-empty" />
      ) : (
        <List
          size="small"
          style={{ maxHeight: 400, overflow: "auto" }}
          dataSource={data?.result ?? []}
          renderItem={(n) => (
            <List.Item
              data-testid="inbox-item"
              data-read={n.read}
              style={{ cursor: n.link ? "pointer" : "default", opacity: n.read ? 0.65 : 1, alignItems: "flex-start" }}
              onClick={() => openOne(n)}
              actions={
                n.read
                  ? []
                  : [
                      <Button
                        key="read"
                        type="link"
                        size="small"
                        aria-label={`Mark "${n.title}" read`}
                        onClick={(event) => {
                          event.stopPropagation();
                          void writes.markRead(n.id).catch((err) => notify.error(err, "Could not mark it read"));
                        }}
                      >
                        Read
                      </Button>,
                    ]
              }
            >
              <List.Item.Meta
                avatar={<Badge color={LEVEL_COLOR[n.level]} />}
                title={<span style={{ fontWeight: n.read ? 400 : 600 }}>{n.title}</span>}
                description={
                  <>
                    {n.body && <div>{n.body}</div>}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {ago(n.createdAt, Date.now())}
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </div>
  );

  return (
    <Popover content={content} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen}>
      <Button
        type="text"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : "Notifications"}
        data-testid="inbox-bell"
        data-unread={unread}
      >
        <Badge count={badgeCount(unread)} size="small" data-testid="inbox-badge">
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      </Button>
    </Popover>
  );
}
