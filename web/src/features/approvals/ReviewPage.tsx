import { CheckOutlined, EditOutlined, MessageOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Flex, Form, Input, List, Result, Tag, Typography } from "antd";
import { useState } from "react";
import { useParams } from "react-router-dom";
import { addReviewEvent, type Review, type ReviewKind, useReview } from "../../api/approvals";
import { errorMessage, isApiError } from "../../api/errors";
import { formatDateTime } from "../../shared/format";
import { safeHtml } from "../../shared/safe-html";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { ReviewEventItem } from "./ApprovalPanel";
import { STATE_LABEL } from "./approval-labels";

/** The reviewer's name, kept in this browser so they type it once. */
const NAME_KEY = "crafter.reviewer-name";

function storedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}

function Content({ review }: { review: Review }) {
  if (review.link.subjectKind === "campaign") {
    const html = review.sections[0]?.html ?? "";
    return (
      <Card size="small" title="The email" data-testid="review-email">
        <Flex vertical gap={4} style={{ marginBottom: 12 }}>
          <Typography.Text>
            <Typography.Text type="secondary">Subject: </Typography.Text>
            <span data-testid="review-subject">{review.subject || "(no subject)"}</span>
          </Typography.Text>
          {review.preheader && (
            <Typography.Text>
              <Typography.Text type="secondary">Preview text: </Typography.Text>
              {review.preheader}
            </Typography.Text>
          )}
        </Flex>
        {html ? (
          // As the campaign preview shows it: the email as sent, in a frame that runs no script.
          <iframe
            title="The email as it will be sent"
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={html}
            data-testid="review-email-frame"
            style={{ width: "100%", height: 560, border: "1px solid #f0f0f0", borderRadius: 8, background: "#fff" }}
          />
        ) : (
          <Typography.Text type="secondary">This email has no content yet.</Typography.Text>
        )}
      </Card>
    );
  }
  return (
    <Flex vertical gap={16} data-testid="review-craft">
      {review.sections.map((section, index) => (
        <Card key={`${index}-${section.title}`} size="small" title={section.title}>
          <div
            className="crafter-review__html"
            style={{ overflowWrap: "anywhere" }}
            // Sanitised by the server with @crafter/html, and again here.
            dangerouslySetInnerHTML={{ __html: safeHtml(section.html) }}
          />
        </Card>
      ))}
    </Flex>
  );
}

function ReviewForm({
  token,
  reviewerName,
  onDone,
}: {
  token: string;
  /** The name the sender gave the link's reviewer, until the reviewer types their own. */
  reviewerName: string;
  onDone: () => Promise<unknown>;
}) {
  const { message } = App.useApp();
  const [name, setName] = useState(() => storedName() || reviewerName);
  const [body, setBody] = useState("");
  const [busy, setBusy] = useState<ReviewKind | null>(null);
  const [fieldError, setFieldError] = useState("");

  const send = async (kind: ReviewKind) => {
    if (kind !== "approved" && !body.trim()) {
      setFieldError(kind === "changes_requested" ? "Say what should change" : "Write a comment");
      return;
    }
    setFieldError("");
    setBusy(kind);
    try {
      await addReviewEvent(token, { kind, body: body.trim(), authorName: name.trim() });
      try {
        localStorage.setItem(NAME_KEY, name.trim());
      } catch {
        // Private mode: the name is asked again next time.
      }
      setBody("");
      message.success(
        kind === "approved"
          ? "Approved. Thank you!"
          : kind === "changes_requested"
            ? "Changes requested"
            : "Comment sent",
      );
      await onDone();
    } catch (failure) {
      if (isApiError(failure) && failure.fields.body) setFieldError(failure.fields.body);
      message.error(errorMessage(failure));
      await onDone();
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card size="small" title="Your review" data-testid="review-form">
      <Flex vertical gap={12}>
        <Form.Item label="Your name" htmlFor="review-name" layout="vertical" style={{ margin: 0 }}>
          <Input
            id="review-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={80}
            autoComplete="name"
            data-testid="review-name"
          />
        </Form.Item>
        <Form.Item
          label="Comment"
          htmlFor="review-comment"
          layout="vertical"
          style={{ margin: 0 }}
          validateStatus={fieldError ? "error" : undefined}
          help={fieldError || undefined}
        >
          <Input.TextArea
            id="review-comment"
            value={body}
            onChange={(e) => setBody(e.target.value)}
            maxLength={5000}
            autoSize={{ minRows: 3, maxRows: 10 }}
            data-testid="review-comment"
          />
        </Form.Item>
        <Flex gap={8} wrap>
          <Button
            icon={<MessageOutlined />}
            onClick={() => void send("comment")}
            loading={busy === "comment"}
            disabled={busy !== null}
            data-testid="review-send-comment"
          >
            Comment
          </Button>
          <Button
            icon={<EditOutlined />}
            onClick={() => void send("changes_requested")}
            loading={busy === "changes_requested"}
            disabled={busy !== null}
            data-testid="review-request-changes"
          >
            Request changes
          </Button>
          <Button
            type="primary"
            icon={<CheckOutlined />}
            onClick={() => void send("approved")}
            loading={busy === "approved"}
            disabled={busy !== null}
            data-testid="review-approve"
          >
            Approve
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}

/**
 * /review/:token: what a reviewer without an account reads through an approval link: the craft or
 * the campaign's email, read-only, with their comments; they comment, approve or ask for changes.
 * A revoked or expired link says so; an unknown or cut one says it is not valid.
 */
export default function ReviewPage() {
  const { token = "" } = useParams();
  const { data, error, mutate } = useReview(token);

  let body: React.ReactNode;
  if (error && isApiError(error) && (error.status === 410 || error.status === 404)) {
    body = (
      <Result
        status={error.status === 410 ? "info" : "warning"}
        title={error.status === 410 ? "This review link no longer works" : "This review link is not valid"}
        subTitle={
          error.status === 410
            ? `${error.message} Nothing here can be read or changed any more.`
            : "Check that the whole link was copied, or ask its sender for a new one."
        }
        data-testid={error.status === 410 ? "review-gone" : "review-invalid"}
      />
    );
  } else if (error && !data) {
    body = <ErrorState error={error} onRetry={() => void mutate()} />;
  } else if (!data) {
    body = <LoadingBlock rows={6} />;
  } else {
    const state = STATE_LABEL[data.state.state];
    body = (
      <Flex vertical gap={16} data-testid="review-page">
        <Flex vertical gap={4}>
          <Typography.Text type="secondary">
            {data.businessName ? `${data.businessName} asks for your review` : "You are asked for your review"}
          </Typography.Text>
          <Flex gap={8} align="center" wrap>
            <Typography.Title level={2} style={{ margin: 0, overflowWrap: "anywhere" }} data-testid="review-title">
              {data.title || "Untitled"}
            </Typography.Title>
            <Tag color={state.color} data-testid="review-state">
              {state.label}
            </Tag>
          </Flex>
          <Typography.Text type="secondary">
            {data.link.subjectKind === "campaign" ? "An email campaign" : "Content"} · link works until{" "}
            {formatDateTime(data.link.expiresAt)}
          </Typography.Text>
        </Flex>
        <Alert
          type="info"
          showIcon
          title="Read-only: you can comment, approve or ask for changes. The sender is told at once."
        />
        <Content review={data} />
        <ReviewForm token={token} reviewerName={data.link.reviewerName} onDone={() => mutate()} />
        {data.events.length > 0 && (
          <Card size="small" title="Comments and decisions" data-testid="review-events">
            <List
              size="small"
              dataSource={[...data.events].reverse()}
              renderItem={(event) => <ReviewEventItem key={event.id} event={event} />}
            />
          </Card>
        )}
      </Flex>
    );
  }

  return (
    <Flex justify="center" style={{ padding: "32px 16px" }}>
      <div style={{ width: "100%", maxWidth: 880, minWidth: 0 }}>{body}</div>
    </Flex>
  );
}
