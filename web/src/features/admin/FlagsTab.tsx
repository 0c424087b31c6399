import { Switch, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { type FlagState, setFlag, useFlagList } from "../../api/admin";
import { notify } from "../../shared/notify";
import { ErrorState } from "../../shared/states";

/** The global defaults of every flag (spec section 6); a switch changes it for everyone. */
export function FlagsTab() {
  return (
    <>
      <Typography.Paragraph type="secondary">
        The default for every user. A user's own override (Users › Flags) wins over it.
      </Typography.Paragraph>
      <FlagList />
    </>
  );
}

/** The global flags, or (`userId`) one user's, with a switch each; every change is audited. */
export function FlagList({ userId }: { userId?: string }) {
  const perUser = userId !== undefined;
  const { data, error, isLoading, mutate } = useFlagList(userId);
  const [saving, setSaving] = useState<string | null>(null);

  const flip = async (flag: FlagState, enabled: boolean) => {
    setSaving(flag.name);
    try {
      await setFlag(flag.name, enabled, userId);
      await mutate();
    } catch (failure) {
      notify.error(failure, "Could not change the flag");
    } finally {
      setSaving(null);
    }
  };

  if (error && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  return (
    <Table<FlagState>
      rowKey="name"
      size="small"
      loading={isLoading}
      pagination={false}
      dataSource={data?.flags ?? []}
      onRow={(flag) => ({ "data-testid": "admin-flag-row", "data-flag": flag.name }) as never}
      columns={[
        { title: "Flag", dataIndex: "name", render: (name: string) => <Typography.Text code>{name}</Typography.Text> },
        ...(perUser
          ? [
              {
                title: "Default",
                key: "default",
                render: (_: unknown, flag: FlagState) =>
                  flag.globalEnabled ? <Tag color="green">on</Tag> : <Tag>off</Tag>,
              },
            ]
          : []),
        {
          title: perUser ? "For this user" : "Enabled",
          key: "enabled",
          render: (_, flag) => (
            <Switch
              checked={flag.enabled}
              loading={saving === flag.name}
              aria-label={`${flag.name} ${perUser ? "for this user" : "for everyone"}`}
              onChange={(checked) => void flip(flag, checked)}
              data-testid="admin-flag-switch"
            />
          ),
        },
      ]}
    />
  );
}
