import { ClearOutlined, SendOutlined } from "@ant-design/icons";
import { Alert, Button, Drawer, Flex, Input, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { api } from "../../api/api";
import { paths } from "../../api/paths";
import { notify } from "../../shared/notify";
import { useUpgradeModal } from "../billing/useUpgradeModal";
import { ASSISTANT_CHAT_CAP, addMessage, type ChatState, canSend, EMPTY_CHAT, isTooLong, replyMessage } from "./chat";

/**
 * The assistant chat (spec sections 3 and 4): sends the whole conversation to
 * `POST /api/assistant/chat { messages }` and appends the reply `{ message }`. Past 163840
 * characters the chat is flagged too long and sending is disabled until Clear.
 */
export function AssistantPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [chat, setChat] = useState<ChatState>(EMPTY_CHAT);
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const tooLong = isTooLong(chat);
  const upgrade = useUpgradeModal();

  useEffect(() => {
    if (chat.count > 0) end.current?.scrollIntoView?.({ block: "end" });
  }, [chat.count]);

  const send = async () => {
    if (!canSend(chat, draft) || sending) return;
    const withQuestion = addMessage(chat, { content: draft.trim() });
    setChat(withQuestion);
    setDraft("");
    setSending(true);
    try {
      const result = await api.post<unknown>(paths.assistantChat, { messages: withQuestion.messages });
      const reply = replyMessage(result);
      if (reply) setChat((current) => addMessage(current, reply));
      else notify.errorMessage("The assistant did not answer", "Please try again.");
    } catch (error) {
      // Out of free credits or over a plan limit: the upgrade modal, else a toast.
      if (!upgrade(error)) notify.error(error, "The assistant could not answer");
    } finally {
      setSending(false);
    }
  };

  return (
    <Drawer
      title="Assistant"
      open={open}
      onClose={onClose}
      size={420}
      data-testid="assistant-panel"
      extra={
        <Button
          icon={<ClearOutlined />}
          onClick={() => setChat(EMPTY_CHAT)}
          disabled={chat.count === 0 || sending}
          data-testid="assistant-clear"
        >
          Clear
        </Button>
      }
      footer={
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <Flex vertical gap={8}>
            {tooLong && (
              <Alert
                type="warning"
                showIcon
                data-testid="assistant-too-long"
                title="This conversation is too long."
                description={`It has passed ${ASSISTANT_CHAT_CAP.toLocaleString()} characters. Clear it to start a new one.`}
              />
            )}
            <Input.TextArea
              value={draft}
              autoSize={{ minRows: 2, maxRows: 8 }}
              placeholder="Ask the assistant…"
              aria-label="Message to the assistant"
              disabled={tooLong}
              data-testid="assistant-input"
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  void send();
                }
              }}
            />
            <Flex justify="space-between" align="center">
              <Typography.Text type="secondary" data-testid="assistant-count">
                {chat.count} {chat.count === 1 ? "message" : "messages"} · {chat.totalLength.toLocaleString()} /{" "}
                {ASSISTANT_CHAT_CAP.toLocaleString()} characters
              </Typography.Text>
              <Button
                type="primary"
                htmlType="submit"
                icon={<SendOutlined />}
                loading={sending}
                disabled={!canSend(chat, draft)}
                data-testid="assistant-send"
              >
                Send
              </Button>
            </Flex>
          </Flex>
        </form>
      }
    >
      <Flex vertical gap={12} aria-live="polite" data-testid="assistant-messages">
        {chat.count === 0 && (
          <Typography.Text type="secondary">Ask for ideas, rewrites or help with your marketing.</Typography.Text>
        )}
        {chat.messages.map((message, index) => (
          <div
            key={index}
            className={
              message.type === "message" ? "crafter-chat crafter-chat--user" : "crafter-chat crafter-chat--assistant"
            }
            data-testid="assistant-message"
            data-type={message.type}
          >
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>{message.content}</Typography.Paragraph>
          </div>
        ))}
        <div ref={end} />
      </Flex>
    </Drawer>
  );
}
