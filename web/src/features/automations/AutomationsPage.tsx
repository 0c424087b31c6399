import { DeleteOutlined, PauseCircleOutlined, PlayCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { App, Button, Card, Flex, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router-dom";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState } from "../../shared/states";
import { TABLE_ACTIONS } from "../../shared/table";
import { useAutomations, useAutomationWrites } from "./api";
import { AUTOMATION_PAGES } from "./paths";
import { TRIGGER_LABELS } from "./step-tree";
import type { Automation } from "./types";

export const STATUS_COLORS: Record<Automation["status"], string> = {
  draft: "default",
  active: "green",
  paused: "orange",
};

/** /app/automation: the project's automations with status and run stats; pause, resume, delete. */
export default function AutomationsPage() {
  const { modal } = App.useApp();
  const [page, setPage] = useState(1);
  const { data, error, isLoading, mutate } = useAutomations(page);
  const writes = useAutomationWrites();
  const automations = data?.result ?? [];

  const toggle = async (a: Automation) => {
    try {
      await writes.setActive(a.id, a.status !== "active");
      notify.success(a.status === "active" ? "Automation paused" : "Automation active");
    } catch (err) {
      notify.error(err, "Could not change the automation");
    }
  };

  const remove = (a: Automation) =>
    modal.confirm({
      title: `Delete the automation ${a.name}?`,
      content: "Contacts in the middle of it stop at their next step. Its run history goes with it.",
      okText: "Delete",
      okButtonProps: { danger: true, "data-testid": "confirm-delete" },
      onOk: async () => {
        try {
          await writes.remove(a.id);
          notify.success("Automation deleted");
        } catch (err) {
          notify.error(err, "Could not delete");
        }
      },
    });

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Automation
          </Typography.Title>
          <Typography.Text type="secondary">
            Emails, tags and reminders that run by themselves for each contact
          </Typography.Text>
        </div>
        <Space wrap>
          <LinkButton to={AUTOMATION_PAGES.templates} data-testid="automations-templates">
            From a template
          </LinkButton>
          <LinkButton
            to={AUTOMATION_PAGES.automation("new")}
            type="primary"
            icon={<PlusOutlined />}
            data-testid="automations-new"
          >
            New automation
          </LinkButton>
        </Space>
      </Flex>
      <Card>
        {error && !data ? (
          <ErrorState error={error} onRetry={() => void mutate()} title="We could not load your automations" />
        ) : !isLoading && automations.length === 0 ? (
          <EmptyState
            testId="automations-empty"
            description="No automations yet. Start from a template: a welcome series, lead nurture, re-engagement or a review request."
            action={
              <LinkButton to={AUTOMATION_PAGES.templates} type="primary">
                Browse templates
              </LinkButton>
            }
          />
        ) : (
          <Table<Automation>
            rowKey="id"
            loading={isLoading}
            dataSource={automations}
            scroll={{ x: "max-content" }}
            data-testid="automations-table"
            pagination={{
              current: data?.meta.currentPage ?? page,
              total: data?.meta.count ?? 0,
              pageSize: 20,
              onChange: setPage,
              hideOnSinglePage: true,
            }}
            columns={[
              {
                title: "Name",
                key: "name",
                render: (_, a) => <Link to={AUTOMATION_PAGES.automation(a.id)}>{a.name}</Link>,
              },
              {
                title: "Status",
                key: "status",
                render: (_, a) => (
                  <Tag color={STATUS_COLORS[a.status]} data-testid={`automation-status-${a.id}`}>
                    {a.status}
                  </Tag>
                ),
              },
              { title: "Trigger", key: "trigger", render: (_, a) => TRIGGER_LABELS[a.trigger.kind] ?? a.trigger.kind },
              { title: "Running", key: "running", render: (_, a) => a.stats.running },
              { title: "Completed", key: "completed", render: (_, a) => a.stats.completed },
              { title: "Failed", key: "failed", render: (_, a) => a.stats.failed },
              {
                title: "",
                key: "actions",
                // Actions stay in view while a phone scrolls the table sideways.
                fixed: "right",
                className: TABLE_ACTIONS,
                render: (_, a) => (
                  <Space>
                    <Button
                      size="small"
                      icon={a.status === "active" ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
                      onClick={() => void toggle(a)}
                      disabled={a.steps.length === 0 && a.status !== "active"}
                      data-testid={`automation-toggle-${a.id}`}
                    >
                      {a.status === "active" ? "Pause" : a.status === "paused" ? "Resume" : "Activate"}
                    </Button>
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Delete ${a.name}`}
                      onClick={() => remove(a)}
                      data-testid={`automation-delete-${a.id}`}
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
