import { LoadingOutlined, StopOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Flex, Tag, Typography } from "antd";
import { safeHtml } from "../../../shared/safe-html";
import { engineLabel } from "../engine-label";

export interface StreamState {
  stepName: string;
  stepTitle: string;
  text: string;
  /** connecting: sent, nothing received yet; streaming: text arriving; done; failed. */
  status: "connecting" | "streaming" | "done" | "failed";
  engine?: string;
  framework?: string;
  /** The user stopped it (the server saves nothing and refunds the credits). */
  cancelled?: boolean;
}

const LOOKS_LIKE_HTML = /<\/?(p|h[1-6]|ul|ol|li|strong|em|br|div|section|blockquote)\b[^>]*>/i;

/**
 * The text of a step as it is written (CompleteStep deltas). `stream-output` holds only the
 * streamed text; its `data-state` says connecting, streaming, done or failed.
 */
export function StreamPanel({ stream, onCancel }: { stream: StreamState; onCancel?: () => void }) {
  const streaming = stream.status === "streaming" || stream.status === "connecting";
  const engine = engineLabel(stream.engine);
  const html = LOOKS_LIKE_HTML.test(stream.text);
  return (
    <Card
      size="small"
      data-testid="stream-panel"
      extra={
        streaming && onCancel ? (
          <Button size="small" icon={<StopOutlined />} onClick={onCancel} data-testid="stream-cancel">
            Cancel
          </Button>
        ) : undefined
      }
      title={
        <Flex align="center" gap={8} wrap>
          {streaming && <LoadingOutlined aria-hidden />}
          <span>{streaming ? `Writing: ${stream.stepTitle}` : `Live draft: ${stream.stepTitle}`}</span>
          {engine && <Tag color={engine.color}>{engine.label}</Tag>}
          {stream.framework && <Tag>{stream.framework}</Tag>}
        </Flex>
      }
    >
      {stream.status === "connecting" && (
        <Typography.Text type="secondary" className="crafter-stream__waiting">
          Starting the engine…
        </Typography.Text>
      )}
      {stream.status === "failed" && (
        <Alert
          type="error"
          showIcon
          title={
            stream.cancelled
              ? "Cancelled. Nothing was saved and the credits were given back."
              : "The generation stopped before the end. Nothing was saved."
          }
          style={{ marginBottom: 12 }}
        />
      )}
      <div
        className={html ? "crafter-stream crafter-rich-text" : "crafter-stream"}
        data-testid="stream-output"
        data-state={stream.status}
        aria-live="polite"
        aria-busy={streaming}
        {...(html
          ? // Our own generated text, escaped by the server (docs/api.md).
            { dangerouslySetInnerHTML: { __html: safeHtml(stream.text) } }
          : { children: stream.text })}
      />
    </Card>
  );
}
