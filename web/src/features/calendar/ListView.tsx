import { SettingOutlined } from "@ant-design/icons";
import { formatIn } from "@crafter/time";
import { App, Button, Checkbox, Flex, Popover, Select, Table, type TableColumnsType, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router-dom";
import { type ListQuery, useCalendarList, useCalendarWrites } from "../../api/calendar";
import { useSettings, useUpdateSettings } from "../../api/hooks/app";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState } from "../../shared/states";
import { TABLE_ACTIONS } from "../../shared/table";
import { useBusinessTimeZone } from "../../shared/time-zone";
import {
  type CalendarColumn,
  type CalendarEntry,
  type CalendarStatus,
  COLUMN_TITLES,
  canUnschedule,
  DEFAULT_CALENDAR_COLUMNS,
  formatRate,
  hasFailedChannel,
  STATUS_COLOR,
  socialRefreshMs,
  TYPE_STYLE,
  toggleCalendarColumn,
  visibleCalendarColumns,
} from "./calendar-logic";
import { SocialChannelChips, STATE_ICON } from "./SocialChannelChips";
import { SocialPostPanel } from "./SocialPostPanel";

const STATUSES: CalendarStatus[] = ["scheduled", "due", "sending", "sent", "published", "failed"];

/** The list view: the spec's columns (the choice saved as `contentCalendarColumns`), paged on the server. */
export function ListView() {
  const { zone } = useBusinessTimeZone();
  const { modal } = App.useApp();
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  const [query, setQuery] = useState<ListQuery>({ page: 1, pageSize: 20, order: "asc" });
  const { data, error, isLoading, mutate } = useCalendarList(query, (page) =>
    socialRefreshMs(page?.result, new Date()),
  );
  const writes = useCalendarWrites();
  const [openId, setOpenId] = useState<string | null>(null);
  const opened = (data?.result ?? []).find((entry) => entry.id === openId) ?? null;
  const shown = visibleCalendarColumns(settings.contentCalendarColumns);

  const unschedule = (entry: CalendarEntry) =>
    modal.confirm({
      title: `Take "${entry.title}" off the calendar?`,
      content: entry.campaignId ? "The campaign is unscheduled and stays a draft." : "The craft itself is kept.",
      okText: "Unschedule",
      okButtonProps: { danger: true },
      onOk: () => writes.unschedule(entry.id).catch((err) => notify.error(err, "Could not unschedule it")),
    });

  const render: Record<CalendarColumn, TableColumnsType<CalendarEntry>[number]> = {
    id: {
      key: "id",
      title: COLUMN_TITLES.id,
      render: (_, e) => <Typography.Text code>{e.id.slice(0, 8)}</Typography.Text>,
    },
    title: {
      key: "title",
      title: COLUMN_TITLES.title,
      render: (_, e) => (
        <Flex gap={6} align="center" wrap>
          <Link to={e.link}>{e.title || TYPE_STYLE[e.type].label}</Link>
          {e.type === "social" ? <SocialChannelChips entry={e} compact /> : null}
        </Flex>
      ),
    },
    type: {
      key: "type",
      title: COLUMN_TITLES.type,
      render: (_, e) => <Tag color={TYPE_STYLE[e.type].color}>{TYPE_STYLE[e.type].label}</Tag>,
    },
    status: {
      key: "status",
      title: COLUMN_TITLES.status,
      render: (_, e) => (
        <Tag color={STATUS_COLOR[e.status]} icon={hasFailedChannel(e) ? STATE_ICON.failed : undefined}>
          {e.status}
        </Tag>
      ),
    },
    date_time: {
      key: "date_time",
      title: COLUMN_TITLES.date_time,
      render: (_, e) => formatIn(new Date(e.dateTime), zone),
    },
    delivery_rate: {
      key: "delivery_rate",
      title: COLUMN_TITLES.delivery_rate,
      render: (_, e) => formatRate(e.deliveryRate),
    },
    bounce_rate: { key: "bounce_rate", title: COLUMN_TITLES.bounce_rate, render: (_, e) => formatRate(e.bounceRate) },
    open_rate: { key: "open_rate", title: COLUMN_TITLES.open_rate, render: (_, e) => formatRate(e.openRate) },
    click_rate: { key: "click_rate", title: COLUMN_TITLES.click_rate, render: (_, e) => formatRate(e.clickRate) },
    action: {
      key: "action",
      // Actions stay in view while a phone scrolls the table sideways.
      fixed: "right",
      className: TABLE_ACTIONS,
      title: COLUMN_TITLES.action,
      render: (_, e) => (
        <Flex gap={4}>
          <Link to={e.link}>Open</Link>
          {e.type === "social" && e.channels.length > 0 ? (
            <Button type="link" size="small" onClick={() => setOpenId(e.id)} data-testid={`social-details-${e.id}`}>
              Channels
            </Button>
          ) : null}
          {canUnschedule(e) && (
            <Button type="link" size="small" danger onClick={() => unschedule(e)} data-testid={`unschedule-${e.id}`}>
              Unschedule
            </Button>
          )}
        </Flex>
      ),
    },
  };

  const picker = (
    <Flex vertical gap={6} data-testid="calendar-column-picker">
      {DEFAULT_CALENDAR_COLUMNS.map((column) => (
        <Checkbox
          key={column}
          checked={shown.includes(column)}
          data-testid={`calendar-column-${column}`}
          onChange={(event) =>
            updateSettings({
              contentCalendarColumns: toggleCalendarColumn(
                settings.contentCalendarColumns,
                column,
                event.target.checked,
              ),
            }).catch((err) => notify.error(err, "Could not save your columns"))
          }
        >
          {COLUMN_TITLES[column]}
        </Checkbox>
      ))}
    </Flex>
  );

  if (error && !data) return <ErrorState error={error} onRetry={() => mutate()} />;

  return (
    <Flex vertical gap={12} data-testid="calendar-list">
      <Flex gap={8} wrap>
        <Select
          allowClear
          placeholder="Type"
          style={{ minWidth: 130 }}
          aria-label="Filter by type"
          value={query.type}
          onChange={(type) => setQuery((q) => ({ ...q, type, page: 1 }))}
          options={Object.entries(TYPE_STYLE).map(([value, s]) => ({ value, label: s.label }))}
        />
        <Select
          allowClear
          placeholder="Status"
          style={{ minWidth: 130 }}
          aria-label="Filter by status"
          value={query.status}
          onChange={(status) => setQuery((q) => ({ ...q, status, page: 1 }))}
          options={STATUSES.map((value) => ({ value, label: value }))}
        />
        <Popover content={picker} trigger="click" placement="bottomRight" title="Columns">
          <Button icon={<SettingOutlined />} data-testid="calendar-columns">
            Columns
          </Button>
        </Popover>
      </Flex>
      <Table<CalendarEntry>
        rowKey="id"
        size="middle"
        scroll={{ x: "max-content" }}
        loading={isLoading}
        dataSource={data?.result ?? []}
        columns={shown.map((c) => render[c])}
        locale={{
          emptyText: (
            <EmptyState
              testId="calendar-list-empty"
              description="Nothing is scheduled yet. Open a craft and choose Schedule."
            />
          ),
        }}
        onChange={(pagination) =>
          setQuery((q) => ({ ...q, page: pagination.current ?? 1, pageSize: pagination.pageSize ?? 20 }))
        }
        pagination={{
          current: query.page,
          pageSize: query.pageSize,
          total: data?.meta.count ?? 0,
          showSizeChanger: true,
          hideOnSinglePage: true,
        }}
      />
      <Button
        type="link"
        style={{ alignSelf: "flex-start", padding: 0 }}
        onClick={() => setQuery((q) => ({ ...q, order: q.order === "asc" ? "desc" : "asc" }))}
      >
        {query.order === "asc" ? "Latest first" : "Earliest first"}
      </Button>
      <SocialPostPanel entry={opened} zone={zone} onClose={() => setOpenId(null)} />
    </Flex>
  );
}
