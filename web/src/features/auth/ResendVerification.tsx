import { emailError } from "@crafter/validation";
import { Button, Input, Space, Typography } from "antd";
import { useState } from "react";
import { api } from "../../api/api";
import { paths } from "../../api/paths";
import { notify } from "../../shared/notify";

/**
 * "Send the link again": asks the gateway for a new verification email (`POST /auth/verify/resend`).
 * The answer is the same whether or not the address has an unverified account, and the server
 * sends at most a few mails an hour per address.
 * @param email prefilled (a signed-in unverified user); without it the user types the address.
 */
export function ResendVerification({ email: known }: { email?: string }) {
  const [email, setEmail] = useState(known ?? "");
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const problem = email ? emailError(email) : null;

  const send = async () => {
    if (!email || problem) return;
    setSending(true);
    try {
      await api.post(paths.resendVerification, { email: email.trim() });
      setSent(true);
    } catch (error) {
      notify.error(error, "Could not send the link");
    } finally {
      setSending(false);
    }
  };

  if (sent) {
    return (
      <Typography.Text type="success" data-testid="resend-sent">
        If the address is waiting for verification, a new link is on its way. Check your inbox.
      </Typography.Text>
    );
  }
  return (
    <Space.Compact style={{ width: "100%" }}>
      {!known && (
        <Input
          type="email"
          aria-label="Email"
          placeholder="you@example.com"
          value={email}
          status={problem ? "error" : undefined}
          onChange={(event) => setEmail(event.target.value)}
          data-testid="resend-email"
        />
      )}
      <Button onClick={() => void send()} loading={sending} disabled={!email || !!problem} data-testid="resend-submit">
        Send the link again
      </Button>
    </Space.Compact>
  );
}
