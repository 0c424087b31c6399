import { MailOutlined } from "@ant-design/icons";
import { Alert, Button, type ButtonProps, Modal, Progress, Skeleton, Typography } from "antd";
import { useEffect, useState } from "react";
import { useSWRConfig } from "swr";
import { isContactListKey, isSegmentKey, previewConsentAsk, startConsentAsk, useConsentAsk } from "../../api/contacts";
import type { ConsentAskPreview, ConsentAskTarget } from "../../api/contacts/types";
import { isApiError } from "../../api/errors";
import { countLabel, formatNumber } from "../../shared/format";

/**
 * "Ask for permission": a button that opens a confirmation naming how many pending contacts get
 * the double opt-in email and how many are skipped (asked within 30 days), then shows the
 * request's progress and result. `ask`: a saved segment, a condition tree, or all (empty).
 */
export function AskPermissionButton({
  ask,
  label = "Ask for permission",
  ...button
}: { ask: ConsentAskTarget; label?: string } & Omit<ButtonProps, "onClick" | "target">) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<MailOutlined />} data-testid="ask-permission" {...button} onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open && <AskPermissionModal target={ask} onClose={() => setOpen(false)} />}
    </>
  );
}

function AskPermissionModal({ target, onClose }: { target: ConsentAskTarget; onClose: () => void }) {
  const { mutate } = useSWRConfig();
  const [preview, setPreview] = useState<ConsentAskPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [runId, setRunId] = useState<string>();
  const run = useConsentAsk(runId);
  const targetJson = JSON.stringify(target);

  useEffect(() => {
    const controller = new AbortController();
    previewConsentAsk(JSON.parse(targetJson) as ConsentAskTarget, controller.signal)
      .then(setPreview)
      .catch((err) => {
        if (!controller.signal.aborted) setError(isApiError(err) ? err.message : String(err));
      });
    return () => controller.abort();
  }, [targetJson]);

  const done = run.data?.done === true;
  useEffect(() => {
    // Confirmed contacts change the counts on the pages behind.
    if (done) void mutate((key) => isContactListKey(key) || isSegmentKey(key));
  }, [done, mutate]);

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      const started = await startConsentAsk(target);
      setRunId(started.id);
    } catch (err) {
      setError(isApiError(err) ? err.message : String(err));
    } finally {
      setStarting(false);
    }
  };

  const eligible = preview?.eligible ?? 0;
  const footer = runId
    ? [
        <Button key="close" type={done ? "primary" : "default"} onClick={onClose} data-testid="ask-permission-close">
          {done ? "Done" : "Close (sending goes on)"}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button
          key="send"
          type="primary"
          loading={starting}
          disabled={!preview || eligible === 0}
          onClick={start}
          data-testid="ask-permission-send"
        >
          {preview && eligible > 0 ? `Send to ${countLabel(eligible, "contact")}` : "Send"}
        </Button>,
      ];

  return (
    <Modal open title="Ask for permission" onCancel={onClose} footer={footer} destroyOnHidden>
      <div data-testid="ask-permission-modal">
        <Typography.Paragraph type="secondary">
          Pending contacts have no opt-in evidence yet, so campaigns never reach them. This sends each of them the
          double opt-in email: one click on its link subscribes them. A contact is asked at most once in 30 days.
        </Typography.Paragraph>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
        {!runId && !preview && !error && <Skeleton active paragraph={{ rows: 2 }} title={false} />}
        {!runId && preview && (
          <div data-testid="ask-permission-preview">
            {preview.pending === 0 ? (
              <Typography.Paragraph>There are no pending contacts here: nobody to ask.</Typography.Paragraph>
            ) : (
              <>
                <Typography.Paragraph>
                  <Typography.Text strong>{countLabel(eligible, "pending contact")}</Typography.Text>{" "}
                  {eligible === 1 ? "gets" : "get"} the confirmation email.
                </Typography.Paragraph>
                {preview.recentlyAsked > 0 && (
                  <Typography.Paragraph data-testid="ask-permission-skipped">
                    {countLabel(preview.recentlyAsked, "contact")} asked within the last 30 days{" "}
                    {preview.recentlyAsked === 1 ? "is" : "are"} skipped.
                  </Typography.Paragraph>
                )}
              </>
            )}
          </div>
        )}
        {runId && (
          <div data-testid="ask-permission-progress">
            <Progress
              percent={
                done ? 100 : run.data && run.data.total > 0 ? Math.round((100 * run.data.sent) / run.data.total) : 0
              }
              status={done ? "success" : "active"}
            />
            {run.data && (
              <Typography.Paragraph style={{ marginTop: 8 }} data-testid="ask-permission-result">
                {done ? "Done: " : "Sending: "}
                {formatNumber(run.data.sent)} of {formatNumber(run.data.total)} sent
                {run.data.skipped > 0 ? `, ${formatNumber(run.data.skipped)} skipped` : ""}.
              </Typography.Paragraph>
            )}
          </div>
        )}
      </div>
    </Modal>
  );
}
