import { TokenLinkPage } from "../../shared/TokenLinkPage";
import { senderPaths } from "./sender-api";

/** /confirm-sender?token=…: the link emailed to a from address; following it lets the business send from it. */
export default function SenderConfirmPage() {
  return (
    <TokenLinkPage<{ address: string }>
      path={senderPaths.confirm}
      pendingTitle="Confirming the address…"
      doneTitle="The address is confirmed"
      doneText={(result) => `Email campaigns can now be sent from ${result?.address ?? ""}.`}
      failedTitle="The address could not be confirmed"
      next={{ signedIn: "/app/settings/sender", signedOut: "/" }}
      testId="sender-confirm"
    />
  );
}
