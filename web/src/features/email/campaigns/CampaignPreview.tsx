import { DesktopOutlined, MobileOutlined, ReloadOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Flex, Segmented, Select, Skeleton, Typography } from "antd";
import { useState } from "react";
import { useCampaignPreview } from "../../../api/email";
import { ErrorState } from "../../../shared/states";
import { audienceSummary } from "./campaign-form";

type Device = "desktop" | "phone";

/**
 * The saved campaign as a real contact of its segment gets it, rendered by the server (smart values,
 * footer, unsubscribe link), at desktop or phone width, with who gets it and who does not.
 */
export function CampaignPreview({ campaignId }: { campaignId: string }) {
  const [contactId, setContactId] = useState("");
  const [device, setDevice] = useState<Device>("desktop");
  const { data, error, isLoading, mutate } = useCampaignPreview(campaignId, contactId);
  if (error) return <ErrorState error={error} onRetry={() => void mutate()} />;
  if (isLoading || !data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const audience = audienceSummary(data);
  return (
    <Flex vertical gap={12} data-testid="campaign-preview">
      <Alert
        type={data.recipients === 0 ? "warning" : "info"}
        showIcon
        data-testid="campaign-audience"
        title={audience.headline}
        description={audience.excluded.length > 0 ? `Not sent to: ${audience.excluded.join(", ")}.` : undefined}
      />
      <Flex gap={8} wrap align="center">
        <Select
          aria-label="Preview for"
          style={{ minWidth: 220, flex: "1 1 220px" }}
          value={data.contact?.contactId ?? undefined}
          placeholder="No contact to preview for"
          options={[
            ...(data.contact && !data.choices.some((c) => c.contactId === data.contact?.contactId)
              ? [data.contact]
              : []),
            ...data.choices,
          ].map((c) => ({
            value: c.contactId,
            label: [c.firstName, c.lastName].filter(Boolean).join(" ")
              ? `${[c.firstName, c.lastName].filter(Boolean).join(" ")} <${c.email}>`
              : c.email,
          }))}
          onChange={setContactId}
          data-testid="campaign-preview-contact"
        />
        <Segmented<Device>
          aria-label="Preview width"
          value={device}
          onChange={setDevice}
          options={[
            { value: "desktop", label: "Desktop", icon: <DesktopOutlined /> },
            { value: "phone", label: "Phone", icon: <MobileOutlined /> },
          ]}
          data-testid="campaign-preview-device"
        />
        <Button icon={<ReloadOutlined />} aria-label="Refresh the preview" onClick={() => void mutate()} />
      </Flex>
      <Card size="small" styles={{ body: { padding: 8 } }}>
        <Typography.Text strong data-testid="campaign-preview-subject">
          {data.subject || "(no subject)"}
        </Typography.Text>
        {data.preheader && (
          <Typography.Text type="secondary" style={{ display: "block" }}>
            {data.preheader}
          </Typography.Text>
        )}
      </Card>
      {data.html ? (
        <div className="crafter-campaign-preview" data-device={device}>
          {/* The server's rendering, shown without scripts, forms or navigation of this page. */}
          <iframe
            title={`The email as ${data.contact?.email ?? "a contact"} gets it (${device})`}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={data.html}
            data-testid="campaign-preview-frame"
            style={{
              width: device === "phone" ? 375 : "100%",
              maxWidth: "100%",
              height: 640,
              border: "1px solid var(--ant-color-border, #d9d9d9)",
              borderRadius: 8,
              background: "#fff",
              display: "block",
              margin: device === "phone" ? "0 auto" : undefined,
            }}
          />
        </div>
      ) : (
        <Alert type="warning" showIcon title="The email has no content yet." />
      )}
    </Flex>
  );
}
