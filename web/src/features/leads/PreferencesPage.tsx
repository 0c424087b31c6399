import { Alert, Button, Card, Flex, Result, Space, Typography } from "antd";
import { useState } from "react";
import { useParams } from "react-router-dom";
import { isApiError } from "../../api/errors";
import { savePreferences, usePreferences } from "../../api/leads";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";

/**
 * /preferences/:token: the preference centre reached by the signed links of emails (unsubscribe
 * and footer links land here): the contact subscribes or unsubscribes, with no account.
 */
export default function PreferencesPage() {
  const { token = "" } = useParams();
  const { data, error, mutate } = usePreferences(token);
  const [busy, setBusy] = useState<string | null>(null);

  const change = async (consent: "subscribed" | "unsubscribed") => {
    setBusy(consent);
    try {
      const saved = await savePreferences(token, consent);
      await mutate(saved, { revalidate: false });
      notify.success(consent === "unsubscribed" ? "You are unsubscribed" : "You are subscribed");
    } catch (err) {
      notify.error(err, "Could not save your choice");
    } finally {
      setBusy(null);
    }
  };

  let body: React.ReactNode;
  if (error && !data) {
    body =
      isApiError(error) && (error.status === 404 || error.status === 400 || error.status === 403) ? (
        <Result
          status="warning"
          title="This link is not valid"
          subTitle="Open the link from your latest email again."
          data-testid="preferences-invalid"
        />
      ) : (
        <ErrorState error={error} onRetry={() => void mutate()} />
      );
  } else if (!data) body = <LoadingBlock rows={3} />;
  else {
    const subscribed = data.consent === "subscribed" || data.consent === "pending";
    body = (
      <Flex vertical gap={16} data-testid="preferences">
        <Typography.Title level={3} style={{ margin: 0 }}>
          Email preferences
        </Typography.Title>
        {data.email && <Typography.Text>For {data.email}</Typography.Text>}
        <Alert
          type={subscribed ? "info" : "warning"}
          showIcon
          data-testid="preferences-status"
          data-consent={data.consent}
          title={
            data.consent === "unsubscribed"
              ? "You are unsubscribed: you will not receive marketing emails."
              : data.consent === "pending"
                ? "Your subscription waits for your confirmation."
                : data.consent === "subscribed"
                  ? "You are subscribed to marketing emails."
                  : `Status: ${data.consent}`
          }
        />
        <Space wrap>
          {data.consent !== "unsubscribed" && (
            <Button
              danger
              loading={busy === "unsubscribed"}
              onClick={() => change("unsubscribed")}
              data-testid="preferences-unsubscribe"
            >
              Unsubscribe from all emails
            </Button>
          )}
          {data.consent === "unsubscribed" && (
            <Button
              type="primary"
              loading={busy === "subscribed"}
              onClick={() => change("subscribed")}
              data-testid="preferences-resubscribe"
            >
              Subscribe again
            </Button>
          )}
        </Space>
      </Flex>
    );
  }

  return (
    <Flex justify="center" style={{ padding: "48px 16px" }}>
      <Card style={{ width: "100%", maxWidth: 560 }}>{body}</Card>
    </Flex>
  );
}
