import { DeleteOutlined, MailOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Divider, Flex, Form, Input, List, Modal, Popconfirm, Select, Tag, Typography } from "antd";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { isApiError } from "../../../api/errors";
import { type MemberRole, useMemberActions, useMembers } from "../../../api/members";
import { FormField } from "../../../shared/FormField";
import { formatDateTime } from "../../../shared/format";
import { notify } from "../../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../../shared/states";
import { ROLE_LABELS } from "./role-labels";

const inviteSchema = z.object({
  email: z.string().trim().min(1, "Email is required").max(320, "Invalid email").email("Invalid email"),
  role: z.enum(["manager", "projectAdmin"]),
});
type InviteForm = z.infer<typeof inviteSchema>;

const ROLE_HELP: Record<MemberRole, string> = {
  manager: "Works on profiles, products, services, campaigns and reviews.",
  projectAdmin: "Also changes the project's name and brand voice.",
};

/**
 * A project's team (issue 14), for its owner: invite by email as manager or project admin, the
 * pending invitations (revocable) and the members (removable, after a confirmation).
 */
export function MembersModal({
  project,
  onClose,
}: {
  project: { projectId: string; projectTitle: string };
  onClose: () => void;
}) {
  const { data, error, isLoading, mutate } = useMembers(project.projectId);
  const { invite, revoke, remove } = useMemberActions(project.projectId);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<InviteForm>({ resolver: zodResolver(inviteSchema), defaultValues: { email: "", role: "manager" } });

  const submit = handleSubmit(async (values) => {
    try {
      await invite(values.email, values.role);
      notify.success(`Invitation sent to ${values.email}`, "The link works once, for 7 days.");
      reset({ email: "", role: values.role });
    } catch (failure) {
      if (isApiError(failure))
        for (const [key, message] of Object.entries(failure.fields)) setError(key as keyof InviteForm, { message });
      notify.error(failure, "Could not send the invitation");
    }
  });

  return (
    <Modal open title={`Team of ${project.projectTitle}`} onCancel={onClose} footer={null} destroyOnHidden>
      <Form layout="vertical" component="div">
        <form onSubmit={submit} noValidate data-testid="member-invite-form">
          <FormField id="member-email" label="Email" error={errors.email} required>
            <Controller
              control={control}
              name="email"
              render={({ field }) => (
                <Input id="member-email" type="email" autoComplete="off" {...field} data-testid="member-email" />
              )}
            />
          </FormField>
          <FormField id="member-role" label="Role" error={errors.role}>
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <Select
                  id="member-role"
                  value={field.value}
                  onChange={field.onChange}
                  options={(["manager", "projectAdmin"] as const).map((role) => ({
                    value: role,
                    label: `${ROLE_LABELS[role]} — ${ROLE_HELP[role]}`,
                  }))}
                  data-testid="member-role"
                />
              )}
            />
          </FormField>
          <Flex justify="flex-end">
            <Button
              type="primary"
              htmlType="submit"
              icon={<MailOutlined />}
              loading={isSubmitting}
              data-testid="member-invite"
            >
              Send invitation
            </Button>
          </Flex>
        </form>
      </Form>
      <Divider />
      {error ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : isLoading || !data ? (
        <LoadingBlock rows={2} />
      ) : (
        <>
          <Typography.Title level={5}>Members</Typography.Title>
          {data.members.length === 0 ? (
            <EmptyState description="Nobody else works on this project yet." />
          ) : (
            <List
              data-testid="member-list"
              dataSource={data.members}
              renderItem={(member) => (
                <List.Item
                  data-testid="member-row"
                  actions={[
                    <Popconfirm
                      key="remove"
                      title={`Remove ${member.email}?`}
                      description="They lose access to this project at once."
                      okText="Remove"
                      okButtonProps={{ danger: true, "data-testid": "confirm-remove-member" } as never}
                      onConfirm={async () => {
                        try {
                          await remove(member.userId);
                          notify.success(`${member.email} removed`);
                        } catch (failure) {
                          notify.error(failure, "Could not remove the member");
                        }
                      }}
                    >
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={`Remove ${member.email}`}
                        data-testid="member-remove"
                      />
                    </Popconfirm>,
                  ]}
                >
                  <List.Item.Meta
                    title={<span style={{ overflowWrap: "anywhere" }}>{member.email}</span>}
                    description={<Tag>{ROLE_LABELS[member.role] ?? member.role}</Tag>}
                  />
                </List.Item>
              )}
            />
          )}
          {data.invites.length > 0 && (
            <>
              <Typography.Title level={5}>Pending invitations</Typography.Title>
              <List
                data-testid="invite-list"
                dataSource={data.invites}
                renderItem={(pending) => (
                  <List.Item
                    data-testid="invite-row"
                    actions={[
                      <Popconfirm
                        key="revoke"
                        title={`Withdraw the invitation to ${pending.email}?`}
                        description="Its link stops working."
                        okText="Withdraw"
                        okButtonProps={{ danger: true, "data-testid": "confirm-revoke-invite" } as never}
                        onConfirm={async () => {
                          try {
                            await revoke(pending.inviteId);
                            notify.success("Invitation withdrawn");
                          } catch (failure) {
                            notify.error(failure, "Could not withdraw the invitation");
                          }
                        }}
                      >
                        <Button type="link" danger data-testid="invite-revoke">
                          Withdraw
                        </Button>
                      </Popconfirm>,
                    ]}
                  >
                    <List.Item.Meta
                      title={<span style={{ overflowWrap: "anywhere" }}>{pending.email}</span>}
                      description={
                        <Typography.Text type="secondary">
                          {ROLE_LABELS[pending.role] ?? pending.role}
                          {pending.expiresAt ? ` · expires ${formatDateTime(pending.expiresAt)}` : ""}
                        </Typography.Text>
                      }
                    />
                  </List.Item>
                )}
              />
            </>
          )}
        </>
      )}
    </Modal>
  );
}
