import { Table, Typography } from "antd";
import { useState } from "react";
import { type AuditEntry, useAudit } from "../../api/admin";
import { formatDateTime } from "../../shared/format";
import { ErrorState } from "../../shared/states";

/** The append-only log of admin actions: who did what, to whom, and when. */
export function AuditTab() {
  const [page, setPage] = useState(1);
  const { data, error, isLoading, mutate } = useAudit(page);
  if (error && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  return (
    <Table<AuditEntry>
      rowKey="id"
      size="small"
      loading={isLoading}
      dataSource={data?.result ?? []}
      scroll={{ x: "max-content" }}
      locale={{ emptyText: "No admin action yet." }}
      pagination={{
        current: page,
        pageSize: 20,
        total: data?.meta.count ?? 0,
        onChange: setPage,
        showSizeChanger: false,
      }}
      onRow={() => ({ "data-testid": "audit-row" }) as never}
      columns={[
        { title: "When", dataIndex: "at", render: (at: string | null) => formatDateTime(at) },
        { title: "Who", dataIndex: "actorEmail" },
        {
          title: "What",
          dataIndex: "action",
          render: (action: string) => <Typography.Text code>{action}</Typography.Text>,
        },
        { title: "To whom", dataIndex: "targetUserId", render: (id: string) => id || "everyone" },
        {
          title: "Details",
          dataIndex: "details",
          render: (details: string) => <Typography.Text code>{details}</Typography.Text>,
        },
      ]}
    />
  );
}
