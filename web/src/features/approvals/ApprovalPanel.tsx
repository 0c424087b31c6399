import { CopyOutlined, ShareAltOutlined } from "@ant-design/icons";
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Select,
  Tag,
  Typography,
} from "antd";
import { useState } from "react";
import {
  type ApprovalEvent,
  type ApprovalLink,
  createApprovalLink,
  revokeApprovalLink,
  type SubjectApprovalState,
  type SubjectKind,
  useApprovals,
} from "../../api/approvals";
import { errorMessage, isApiError } from "../../api/errors";
import { formatDateTime } from "../../shared/format";
import { KIND_LABEL, STATE_LABEL } from "./approval-labels";

interface Subject {
  kind: SubjectKind;
  id: string;
  /** The project it belongs to; the active one when absent. */
  projectId?: string;
  /** Its name, for the dialog's title. */
  name: string;
}

const EXPIRY_CHOICES = [1, 3, 7, 14, 30].map((days) => ({
  value: days,
  label: days === 1 ? "1 day" : `${days} days`,
}));

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  throw new Error("Your browser did not allow copying. Select the link and copy it instead.");
}

/** The approval state as a tag (nothing while never shared). */
export function ApprovalTag({ kind, id, projectId }: Omit<Subject, "name">) {
  const { data } = useApprovals(kind, id, projectId);
  if (!data || data.state.state === "none") return null;
  const label = STATE_LABEL[data.state.state];
  return (
    <Tag color={label.color} data-testid="approval-state">
      {label.label}
    </Tag>
  );
}

/** "Emailed to x" and its like: where the email of a link to its reviewer stands ("" when none). */
export function emailNote(link: Pick<ApprovalLink, "emailStatus" | "reviewerEmail">): string {
  if (!link.reviewerEmail) return "";
  if (link.emailStatus === "sent") return `Emailed to ${link.reviewerEmail}`;
  if (link.emailStatus === "pending")
    return `Emailing to ${link.reviewerEmail}: the mail server did not take it yet, retrying`;
  if (link.emailStatus === "failed") return `Could not email ${link.reviewerEmail}: copy the link and send it yourself`;
  return "";
}

/** A listed item's approval state as a tag, with its reviewer (nothing while never shared). */
export function ApprovalStateTag({ state }: { state: SubjectApprovalState | undefined }) {
  if (!state || state.state === "none") return null;
  const label = STATE_LABEL[state.state];
  return (
    <Tag
      color={label.color}
      data-testid="approval-state-tag"
      data-state={state.state}
      title={state.reviewer ? `${label.label} · ${state.reviewer}` : label.label}
      style={{ marginInlineEnd: 0, maxWidth: 260, overflow: "hidden", textOverflow: "ellipsis" }}
    >
      {label.label}
      {state.reviewer ? ` · ${state.reviewer}` : ""}
    </Tag>
  );
}

function LinkRow({ link, onRevoke }: { link: ApprovalLink; onRevoke: (link: ApprovalLink) => Promise<void> }) {
  const who = link.reviewerName || link.reviewerEmail || "Any reviewer with the link";
  const status =
    link.status === "active"
      ? { color: "processing", text: `Until ${formatDateTime(link.expiresAt)}` }
      : link.status === "revoked"
        ? { color: "default", text: "Revoked" }
        : { color: "default", text: "Expired" };
  return (
    <List.Item
      data-testid="approval-link"
      data-status={link.status}
      actions={
        link.status === "active"
          ? [
              <Popconfirm
                key="revoke"
                title="Revoke this link?"
                description="It stops working at once for anyone who has it."
                okText="Revoke"
                okButtonProps={{ danger: true, "data-testid": "confirm-revoke" }}
                onConfirm={() => onRevoke(link)}
              >
                <Button size="small" danger data-testid="revoke-link">
                  Revoke
                </Button>
              </Popconfirm>,
            ]
          : []
      }
    >
      <List.Item.Meta
        title={<Typography.Text ellipsis>{who}</Typography.Text>}
        description={
          <Flex gap={4} wrap>
            <Tag color={status.color}>{status.text}</Tag>
            <Typography.Text type="secondary">
              by {link.createdBy || "you"}, {formatDateTime(link.createdAt)}
            </Typography.Text>
            {emailNote(link) && (
              <Typography.Text
                type={link.emailStatus === "failed" ? "warning" : "secondary"}
                data-testid="link-email-status"
                data-email-status={link.emailStatus}
              >
                {emailNote(link)}
              </Typography.Text>
            )}
          </Flex>
        }
      />
    </List.Item>
  );
}

/**
 * "Share for approval": a dialog that makes a review link (reviewer's name and email optional,
 * expiry 7 days by default), shows it once to copy, and lists the links with Revoke.
 */
export function ShareForApprovalButton(subject: Subject) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [url, setUrl] = useState("");
  const [made, setMade] = useState<ApprovalLink | null>(null);
  const [form] = Form.useForm<{ reviewerName: string; reviewerEmail: string; expiresInDays: number }>();
  const { data, error, isLoading, mutate } = useApprovals(subject.kind, subject.id, subject.projectId);

  const create = async (values: { reviewerName?: string; reviewerEmail?: string; expiresInDays: number }) => {
    setCreating(true);
    try {
      const created = await createApprovalLink({
        ...(subject.projectId ? { projectId: subject.projectId } : {}),
        subjectKind: subject.kind,
        subjectId: subject.id,
        reviewerName: values.reviewerName?.trim() ?? "",
        reviewerEmail: values.reviewerEmail?.trim() ?? "",
        expiresInDays: values.expiresInDays,
      });
      setUrl(created.url);
      setMade(created.link);
      form.resetFields();
      await mutate();
    } catch (failure) {
      if (isApiError(failure) && Object.keys(failure.fields).length > 0) {
        form.setFields(
          Object.entries(failure.fields)
            .filter(([name]) => ["reviewerName", "reviewerEmail", "expiresInDays"].includes(name))
            .map(([name, text]) => ({ name: name as "reviewerName", errors: [text] })),
        );
      }
      message.error(errorMessage(failure));
    } finally {
      setCreating(false);
    }
  };

  const revoke = async (link: ApprovalLink) => {
    try {
      await revokeApprovalLink(link.id, subject.projectId || undefined);
      message.success("The link no longer works");
      await mutate();
    } catch (failure) {
      message.error(errorMessage(failure));
    }
  };

  const copy = async () => {
    try {
      await copyText(url);
      message.success("Link copied");
    } catch (failure) {
      message.error(errorMessage(failure));
    }
  };

  const links = data?.links ?? [];
  const active = links.filter((l) => l.status === "active");
  const ended = links.filter((l) => l.status !== "active");
  return (
    <>
      <Button icon={<ShareAltOutlined />} onClick={() => setOpen(true)} data-testid="share-for-approval">
        Share for approval
      </Button>
      <Modal
        open={open}
        title={`Share “${subject.name || "Untitled"}” for approval`}
        onCancel={() => {
          setOpen(false);
          setUrl("");
        }}
        footer={null}
        destroyOnHidden
        data-testid="share-dialog"
      >
        <Typography.Paragraph type="secondary">
          Anyone with the link can read it, comment, approve or ask for changes, without an account. With a reviewer's
          email, we email them the link from your business. You are told in the app and by email.
          {subject.kind === "craft"
            ? " The reviewer sees the results as they are now: after changes, share a new link."
            : " The reviewer sees the email as it is when they open the link."}
        </Typography.Paragraph>
        {url ? (
          <Flex vertical gap={8} style={{ marginBottom: 16 }}>
            <Alert
              type="success"
              showIcon
              title="Link ready: copy it now, it is shown only once."
              description={
                made && emailNote(made) ? <span data-testid="share-email-status">{emailNote(made)}</span> : undefined
              }
            />
            <Flex gap={8}>
              <Input
                readOnly
                value={url}
                aria-label="Review link"
                data-testid="review-url"
                onFocus={(e) => e.target.select()}
              />
              <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="copy-review-url">
                Copy
              </Button>
            </Flex>
            <Button type="link" style={{ alignSelf: "flex-start", padding: 0 }} onClick={() => setUrl("")}>
              Make another link
            </Button>
          </Flex>
        ) : (
          <Form
            form={form}
            layout="vertical"
            initialValues={{ expiresInDays: 7 }}
            onFinish={(values) => void create(values)}
            requiredMark={false}
          >
            <Flex gap={12} wrap>
              <Form.Item name="reviewerName" label="Reviewer's name (optional)" style={{ flex: "1 1 180px" }}>
                <Input maxLength={80} autoComplete="off" data-testid="reviewer-name" />
              </Form.Item>
              <Form.Item
                name="reviewerEmail"
                label="Reviewer's email (optional)"
                style={{ flex: "1 1 180px" }}
                rules={[{ type: "email", message: "Enter a valid email" }]}
              >
                <Input maxLength={254} autoComplete="off" inputMode="email" data-testid="reviewer-email" />
              </Form.Item>
            </Flex>
            <Flex gap={12} align="end" wrap>
              <Form.Item name="expiresInDays" label="Works for" style={{ flex: "0 1 160px" }}>
                <Select options={EXPIRY_CHOICES} data-testid="link-expiry" />
              </Form.Item>
              <Form.Item>
                <Button type="primary" htmlType="submit" loading={creating} data-testid="create-review-link">
                  Create link
                </Button>
              </Form.Item>
            </Flex>
          </Form>
        )}
        <Typography.Title level={5}>Links</Typography.Title>
        {error ? (
          <Alert
            type="error"
            showIcon
            title={errorMessage(error)}
            action={<Button onClick={() => void mutate()}>Retry</Button>}
          />
        ) : (
          <List
            size="small"
            loading={isLoading}
            dataSource={[...active, ...ended]}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No links yet" /> }}
            renderItem={(link) => <LinkRow key={link.id} link={link} onRevoke={revoke} />}
            data-testid="approval-links"
          />
        )}
      </Modal>
    </>
  );
}

/** One reviewer's comment or decision. */
export function ReviewEventItem({ event }: { event: ApprovalEvent }) {
  const color = event.kind === "approved" ? "success" : event.kind === "changes_requested" ? "warning" : "default";
  return (
    <List.Item data-testid="approval-event" data-kind={event.kind}>
      <Flex vertical gap={4} style={{ minWidth: 0, width: "100%" }}>
        <Flex gap={8} wrap align="center">
          <Typography.Text strong>{event.authorName || "Reviewer"}</Typography.Text>
          {event.kind !== "comment" && <Tag color={color}>{KIND_LABEL[event.kind]}</Tag>}
          <Typography.Text type="secondary">{formatDateTime(event.createdAt)}</Typography.Text>
        </Flex>
        {event.body && (
          <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0, overflowWrap: "anywhere" }}>
            {event.body}
          </Typography.Paragraph>
        )}
      </Flex>
    </List.Item>
  );
}

/** The approval state and the reviewers' comments, under a craft or campaign (nothing until shared). */
export function ApprovalSummary({ kind, id, projectId }: Omit<Subject, "name">) {
  const { data } = useApprovals(kind, id, projectId);
  if (!data || data.state.state === "none") return null;
  const label = STATE_LABEL[data.state.state];
  const active = data.links.filter((l) => l.status === "active").length;
  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center" wrap>
          Approval <Tag color={label.color}>{label.label}</Tag>
        </Flex>
      }
      extra={
        <Typography.Text type="secondary">{active === 1 ? "1 active link" : `${active} active links`}</Typography.Text>
      }
      data-testid="approval-summary"
    >
      {data.events.length === 0 ? (
        <Typography.Text type="secondary">No comments yet.</Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={[...data.events].reverse()}
          renderItem={(event) => <ReviewEventItem key={event.id} event={event} />}
        />
      )}
    </Card>
  );
}
