import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Flex, Form, Input, Popconfirm, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { isApiError } from "../../api/errors";
import {
  addSendingDomain,
  checkSendingDomain,
  type RecordStatus,
  removeSendingDomain,
  resendSenderConfirmation,
  type SenderIdentity,
  type SendingDomain,
  saveSenderIdentity,
  useSenderIdentity,
  useSendingDomains,
} from "../../api/sender";
import { FormField } from "../../shared/FormField";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { applyFieldErrors } from "../auth/AuthCard";
import { SettingsPageFrame } from "../settings/SettingsPageFrame";
import { mailbox, RECORD_LABELS } from "./sender-display";

const address = (label: string) =>
  z
    .string()
    .trim()
    .max(254, `${label} is too long`)
    .refine((value) => value === "" || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), `${label} must be an email address`);

const schema = z.object({
  fromName: z.string().trim().max(100, "At most 100 characters"),
  fromAddress: address("From address"),
  replyTo: address("Reply-to"),
});
type Values = z.infer<typeof schema>;

const STATUS_TAGS: Record<RecordStatus | SenderIdentity["addressStatus"], { color: string; label: string }> = {
  verified: { color: "green", label: "Verified" },
  pending: { color: "gold", label: "Pending" },
  wrong: { color: "red", label: "Wrong" },
  unset: { color: "default", label: "Not set" },
};

function StatusTag({ status, testId }: { status: keyof typeof STATUS_TAGS; testId?: string }) {
  const tag = STATUS_TAGS[status];
  return (
    <Tag color={tag.color} data-testid={testId}>
      {tag.label}
    </Tag>
  );
}

/**
 * /app/settings/sender (the project's owner and project admins): who the project's campaigns and
 * automations' emails come from, the from address's confirmation, and sending domains with their
 * DKIM, SPF and DMARC records checked live.
 */
export default function SenderSettingsPage() {
  const identity = useSenderIdentity();
  return (
    <SettingsPageFrame title="Sender">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Who your campaigns and automations' emails come from. Mailbox providers trust mail from a business's own,
        authenticated domain.
      </Typography.Paragraph>
      <Card title="Sender identity" data-testid="sender-identity">
        {identity.data ? (
          <IdentityForm identity={identity.data} onSaved={(next) => void identity.mutate(next, false)} />
        ) : identity.error ? (
          <ErrorState error={identity.error} onRetry={() => void identity.mutate()} />
        ) : (
          <LoadingBlock rows={5} />
        )}
      </Card>
      <DomainsCard onChecked={() => void identity.mutate()} />
    </SettingsPageFrame>
  );
}

function IdentityForm({ identity, onSaved }: { identity: SenderIdentity; onSaved: (next: SenderIdentity) => void }) {
  const [resending, setResending] = useState(false);
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { fromName: identity.fromName, fromAddress: identity.fromAddress, replyTo: identity.replyTo },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const next = await saveSenderIdentity(values);
      reset({ fromName: next.fromName, fromAddress: next.fromAddress, replyTo: next.replyTo });
      onSaved(next);
      notify.success(
        next.addressStatus === "pending" && next.fromAddress !== identity.fromAddress
          ? `Saved. We emailed a confirmation link to ${next.fromAddress}.`
          : "Your sender is saved",
      );
    } catch (failure) {
      if (
        isApiError(failure) &&
        applyFieldErrors(failure.fields, setError, ["fromName", "fromAddress", "replyTo"] as const)
      )
        return;
      notify.error(failure, "Could not save your sender");
    }
  });

  const onResend = async () => {
    setResending(true);
    try {
      onSaved(await resendSenderConfirmation());
      notify.success(`We emailed a new confirmation link to ${identity.fromAddress}`);
    } catch (failure) {
      notify.error(failure, "Could not send the link");
    } finally {
      setResending(false);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Alert
        type={identity.addressStatus === "verified" ? "success" : "info"}
        showIcon
        data-testid="sender-effective"
        message={`Your email goes out as ${mailbox(identity.effectiveFrom)}`}
        description={
          <>
            {identity.effectiveReplyTo ? `Replies go to ${identity.effectiveReplyTo}. ` : ""}
            {identity.addressStatus === "verified"
              ? identity.dkimActive
                ? "It is signed with your domain's DKIM key."
                : "Authenticate its domain below so it is DKIM-signed."
              : identity.addressStatus === "pending"
                ? `Until ${identity.fromAddress} is confirmed, email goes from ${identity.platformAddress} with your business's name.`
                : `Add your own address to send from it; until then email goes from ${identity.platformAddress}.`}
          </>
        }
      />
      <Form layout="vertical" component={false}>
        <form onSubmit={onSubmit} noValidate aria-label="Sender identity">
          <FormField
            id="sender-from-name"
            label="From name"
            error={errors.fromName}
            extra="Your business's name if empty."
          >
            <Controller
              name="fromName"
              control={control}
              render={({ field }) => (
                <Input {...field} id="sender-from-name" data-testid="sender-from-name" autoComplete="organization" />
              )}
            />
          </FormField>
          <FormField
            id="sender-from-address"
            label={
              <Space size={8}>
                From address
                <StatusTag status={identity.addressStatus} testId="sender-address-status" />
              </Space>
            }
            error={errors.fromAddress}
            extra="Used once you follow the confirmation link we email to it."
          >
            <Controller
              name="fromAddress"
              control={control}
              render={({ field }) => (
                <Input
                  {...field}
                  id="sender-from-address"
                  data-testid="sender-from-address"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  aria-describedby={errors.fromAddress ? "sender-from-address-error" : undefined}
                />
              )}
            />
          </FormField>
          <FormField id="sender-reply-to" label="Reply-to" error={errors.replyTo} extra="The from address if empty.">
            <Controller
              name="replyTo"
              control={control}
              render={({ field }) => (
                <Input
                  {...field}
                  id="sender-reply-to"
                  data-testid="sender-reply-to"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                />
              )}
            />
          </FormField>
          <Flex gap={8} wrap>
            <Button
              type="primary"
              htmlType="submit"
              loading={isSubmitting}
              disabled={!isDirty}
              data-testid="sender-save"
            >
              Save
            </Button>
            {identity.addressStatus === "pending" && (
              <Button onClick={() => void onResend()} loading={resending} data-testid="sender-resend">
                Send the link again
              </Button>
            )}
          </Flex>
          {identity.addressStatus === "pending" && identity.linkSentAt && (
            <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }}>
              Link sent {formatDateTime(identity.linkSentAt)}.
            </Typography.Paragraph>
          )}
        </form>
      </Form>
    </Flex>
  );
}

function DomainsCard({ onChecked }: { onChecked: () => void }) {
  const domains = useSendingDomains();
  const [domain, setDomain] = useState("");
  const [error, setError] = useState("");
  const [adding, setAdding] = useState(false);

  const onAdd = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!domain.trim()) {
      setError("Enter a domain such as example.com");
      return;
    }
    setAdding(true);
    try {
      await addSendingDomain(domain.trim());
      setDomain("");
      setError("");
      await domains.mutate();
    } catch (failure) {
      if (isApiError(failure) && failure.fields.domain) setError(failure.fields.domain);
      else notify.error(failure, "Could not add the domain");
    } finally {
      setAdding(false);
    }
  };

  return (
    <Card title="Sender authentication (DKIM)" data-testid="sender-domains">
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          Publish these records at your DNS host so mailbox providers know Crafter sends for your domain. Mail from a
          confirmed address on the domain is DKIM-signed once its DKIM record checks as verified.
        </Typography.Paragraph>
        <form onSubmit={(event) => void onAdd(event)} aria-label="Add a sending domain">
          <Form.Item
            label="Domain"
            htmlFor="sender-domain"
            validateStatus={error ? "error" : undefined}
            help={error || undefined}
            style={{ marginBottom: 0 }}
          >
            <Space.Compact style={{ width: "100%" }}>
              <Input
                id="sender-domain"
                data-testid="sender-domain"
                value={domain}
                onChange={(event) => setDomain(event.target.value)}
                placeholder="example.com"
                inputMode="url"
                autoComplete="off"
              />
              <Button htmlType="submit" type="primary" loading={adding} data-testid="sender-domain-add">
                Add
              </Button>
            </Space.Compact>
          </Form.Item>
        </form>
        {domains.data ? (
          domains.data.result.length === 0 ? (
            <EmptyState description="No sending domain yet." testId="sender-domains-empty" />
          ) : (
            domains.data.result.map((d) => (
              <DomainRecords
                key={d.domain}
                domain={d}
                onChange={() => {
                  void domains.mutate();
                  onChecked();
                }}
              />
            ))
          )
        ) : domains.error ? (
          <ErrorState error={domains.error} onRetry={() => void domains.mutate()} />
        ) : (
          <LoadingBlock rows={3} />
        )}
      </Flex>
    </Card>
  );
}

// Records wrap anywhere: a DKIM value is one 400-character word that must not widen a phone's page.
const SECTION = { display: "flex", flexDirection: "column", gap: 8, minWidth: 0 } as const;
const RECORDS = { listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 12 } as const;
const RECORD = { border: "1px solid rgba(5, 5, 5, 0.12)", borderRadius: 8, padding: 12, minWidth: 0 } as const;
const FIELDS = {
  display: "grid",
  gridTemplateColumns: "auto minmax(0, 1fr)",
  gap: "4px 12px",
  margin: "8px 0 0",
} as const;
const LABEL = { color: "rgba(0, 0, 0, 0.55)" } as const;
const VALUE = { margin: 0, minWidth: 0, overflowWrap: "anywhere", wordBreak: "break-all" } as const;

function DomainRecords({ domain, onChange }: { domain: SendingDomain; onChange: () => void }) {
  const [checking, setChecking] = useState(false);
  const onCheck = async () => {
    setChecking(true);
    try {
      await checkSendingDomain(domain.domain);
      onChange();
    } catch (failure) {
      notify.error(failure, "Could not check the records");
    } finally {
      setChecking(false);
    }
  };
  const onRemove = async () => {
    try {
      await removeSendingDomain(domain.domain);
      onChange();
      notify.success(`${domain.domain} is removed`);
    } catch (failure) {
      notify.error(failure, "Could not remove the domain");
    }
  };
  return (
    <section style={SECTION} data-testid={`sender-domain-${domain.domain}`} aria-label={domain.domain}>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {domain.domain}
        </Typography.Title>
        <Space wrap>
          <Button onClick={() => void onCheck()} loading={checking} data-testid="sender-domain-check">
            Check now
          </Button>
          <Popconfirm
            title={`Remove ${domain.domain}?`}
            description="Its DKIM key is deleted; mail from it is no longer signed."
            okText="Remove"
            okButtonProps={{ danger: true }}
            onConfirm={() => void onRemove()}
          >
            <Button danger>Remove</Button>
          </Popconfirm>
        </Space>
      </Flex>
      <Typography.Text type="secondary">
        {domain.checkedAt ? `Checked ${formatDateTime(domain.checkedAt)}` : "Not checked yet"}
      </Typography.Text>
      <ul style={RECORDS}>
        {domain.records.map((record) => (
          <li key={record.kind} data-testid={`sender-record-${record.kind}`} style={RECORD}>
            <Flex align="center" gap={8} wrap>
              <strong>{RECORD_LABELS[record.kind]}</strong>
              <StatusTag status={record.status} testId={`sender-record-${record.kind}-status`} />
              {record.reason && record.status !== "verified" && (
                <Typography.Text type="secondary">{record.reason}</Typography.Text>
              )}
            </Flex>
            <dl style={FIELDS}>
              <dt style={LABEL}>Type</dt>
              <dd style={VALUE}>{record.type}</dd>
              <dt style={LABEL}>Host</dt>
              <dd style={VALUE}>
                <Typography.Text code copyable>
                  {record.host}
                </Typography.Text>
              </dd>
              <dt style={LABEL}>Value</dt>
              <dd style={VALUE}>
                <Typography.Text code copyable>
                  {record.value}
                </Typography.Text>
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
