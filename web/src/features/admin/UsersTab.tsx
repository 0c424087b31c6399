import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Drawer, Flex, Form, Input, InputNumber, Modal, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { type AdminUser, grantCredits, useAdminUsers } from "../../api/admin";
import { isApiError } from "../../api/errors";
import { FormField } from "../../shared/FormField";
import { creditsLabel, formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState } from "../../shared/states";
import { TABLE_ACTIONS } from "../../shared/table";
import { applyFieldErrors } from "../auth/AuthCard";
import { FlagList } from "./FlagsTab";

/** Users: search by whole words of the email or name, role and status, and what an admin does to one. */
export function UsersTab() {
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(1);
  const { data, error, isLoading, mutate } = useAdminUsers(query, page);
  const [granting, setGranting] = useState<AdminUser | null>(null);
  const [flagging, setFlagging] = useState<AdminUser | null>(null);

  return (
    <Flex vertical gap={16}>
      <Input.Search
        aria-label="Search users"
        placeholder="Email, name, or a whole word of either"
        allowClear
        enterButton="Search"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onSearch={(value) => {
          setQuery(value.trim());
          setPage(1);
        }}
        data-testid="admin-user-search"
      />
      {error && !data ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : (
        <Table<AdminUser>
          rowKey="userId"
          loading={isLoading}
          dataSource={data?.result ?? []}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: query ? "No user matches these words." : "No users yet." }}
          pagination={{
            current: page,
            pageSize: 20,
            total: data?.meta.count ?? 0,
            onChange: setPage,
            showSizeChanger: false,
          }}
          onRow={(user) => ({ "data-testid": "admin-user-row", "data-email": user.email }) as never}
          columns={[
            {
              title: "User",
              key: "user",
              render: (_, user) => (
                <Flex vertical>
                  <Typography.Text strong>{user.displayName}</Typography.Text>
                  <Typography.Text type="secondary">{user.email}</Typography.Text>
                </Flex>
              ),
            },
            { title: "Role", dataIndex: "role", render: (role: string) => <Tag>{role}</Tag> },
            {
              title: "Status",
              dataIndex: "status",
              render: (status: string) => <Tag color={status === "active" ? "green" : "orange"}>{status}</Tag>,
            },
            { title: "Signed up", dataIndex: "createdAt", render: (at: string | null) => formatDateTime(at) },
            {
              title: "Actions",
              key: "actions",
              // Actions stay in view while a phone scrolls the table sideways.
              fixed: "right",
              className: TABLE_ACTIONS,
              render: (_, user) => (
                <Flex gap={8} wrap>
                  <Button size="small" onClick={() => setGranting(user)} data-testid="admin-grant-open">
                    Grant credits
                  </Button>
                  <Button size="small" onClick={() => setFlagging(user)} data-testid="admin-flags-open">
                    Flags
                  </Button>
                </Flex>
              ),
            },
          ]}
        />
      )}
      {granting && <GrantModal user={granting} onClose={() => setGranting(null)} />}
      <Drawer
        open={!!flagging}
        onClose={() => setFlagging(null)}
        title={flagging ? `Flags of ${flagging.email}` : "Flags"}
        size="large"
        destroyOnHidden
      >
        {flagging && <FlagList userId={flagging.userId} />}
      </Drawer>
    </Flex>
  );
}

const grantSchema = z.object({
  amount: z.number({ error: "Enter a number of credits" }).int("Whole credits only").min(1).max(100_000),
  reason: z.string().trim().min(1, "Say why").max(200, "At most 200 characters"),
});
type GrantValues = z.infer<typeof grantSchema>;

/** Grants credits through billing's ledger; the key makes a double click grant once. */
function GrantModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<GrantValues>({ resolver: zodResolver(grantSchema), defaultValues: { amount: 100, reason: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await grantCredits(user.userId, { ...values, idempotencyKey: key });
      notify.success(`${user.email} now has ${creditsLabel(result.balance)}`);
      onClose();
    } catch (failure) {
      if (isApiError(failure) && applyFieldErrors(failure.fields, setError, ["amount", "reason"] as const)) return;
      notify.error(failure, "Could not grant the credits");
    }
  });

  return (
    <Modal
      open
      title={`Grant credits to ${user.email}`}
      onCancel={onClose}
      okText="Grant"
      okButtonProps={
        {
          loading: isSubmitting,
          htmlType: "submit",
          form: "admin-grant-form",
          "data-testid": "admin-grant-submit",
        } as never
      }
      destroyOnHidden
    >
      <Form layout="vertical" component={false}>
        <form id="admin-grant-form" onSubmit={onSubmit} noValidate aria-label="Grant credits">
          <FormField id="admin-grant-amount" label="Credits" error={errors.amount} required>
            <Controller
              name="amount"
              control={control}
              render={({ field }) => (
                <InputNumber
                  {...field}
                  id="admin-grant-amount"
                  data-testid="admin-grant-amount"
                  min={1}
                  max={100_000}
                  precision={0}
                  style={{ width: "100%" }}
                  onChange={(value) => field.onChange(value ?? undefined)}
                />
              )}
            />
          </FormField>
          <FormField id="admin-grant-reason" label="Reason (kept in the audit log)" error={errors.reason} required>
            <Controller
              name="reason"
              control={control}
              render={({ field }) => (
                <Input {...field} id="admin-grant-reason" data-testid="admin-grant-reason" maxLength={200} />
              )}
            />
          </FormField>
        </form>
      </Form>
    </Modal>
  );
}
