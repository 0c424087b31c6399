import { Alert } from "antd";
import { useSenderIdentity } from "../../api/sender";
import { LinkButton } from "../../shared/LinkButton";
import { mailbox } from "./sender-display";

/**
 * "Sending as …" for the campaign form: what the email's From and Reply-To will be, and a link to
 * Settings → Sender when the business has no confirmed from address yet. Renders nothing while
 * loading or when the sender cannot be read (the form still works).
 */
export function SenderNotice({ projectId }: { projectId?: string }) {
  const { data } = useSenderIdentity(projectId);
  if (!data) return null;
  const from = mailbox(data.effectiveFrom);
  const reply = data.effectiveReplyTo ? ` Replies go to ${data.effectiveReplyTo}.` : "";
  if (data.addressStatus === "verified")
    return (
      <Alert
        type="success"
        showIcon
        data-testid="sender-notice"
        message={`Sending as ${from}${data.dkimActive ? ", signed with your domain's DKIM key" : ""}.${reply}`}
      />
    );
  return (
    <Alert
      type="info"
      showIcon
      data-testid="sender-notice"
      message={`Sending as ${from}.${reply}`}
      description={
        data.addressStatus === "pending"
          ? `${data.fromAddress} is used once you follow the confirmation link we emailed to it.`
          : "Add your business's own from address to send from it."
      }
      action={
        <LinkButton to="/app/settings/sender" size="small">
          Sender settings
        </LinkButton>
      }
    />
  );
}
