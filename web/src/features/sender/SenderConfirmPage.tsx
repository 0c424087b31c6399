import { SENDER_CONFIRM_PATH } from "../../api/sender";
import { TokenLinkPage } from "../../shared/TokenLinkPage";

/** /confirm-sender?token=…: the link emailed to a from address; following it lets the business send from it. */
export default function SenderConfirmPage() {
  return (
    <TokenLinkPage<{ address: string }>
      path={SENDER_CONFIRM_PATH}
      pendingTitle="Confirming the address…"
      doneTitle="The address is confirmed"
      doneText={(result) => `Email campaigns can now be sent from ${result?.address ?? ""}.`}
      failedTitle="The address could not be confirmed"
      next={{ signedIn: "/app/settings/sender", signedOut: "/" }}
      testId="sender-confirm"
    />
  );
}
