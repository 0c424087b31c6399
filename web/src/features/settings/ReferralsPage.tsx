import { Card, Descriptions, Typography } from "antd";
import useSWR from "swr";
import { fetcher } from "../../api/api";
import { creditsLabel } from "../../shared/format";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { SettingsPageFrame } from "./SettingsPageFrame";

/** `GET /api/settings/referrals` (issue 14). */
export interface ReferralsView {
  code: string;
  link: string;
  signedUp: number;
  paid: number;
  referrerCredits: number;
  referredCredits: number;
}

/**
 * /app/settings/referrals (flag first_promoter): the user's referral link with a copy button, and
 * how many signed up with it and paid. Both sides get credits with the referred user's first payment.
 */
export default function ReferralsPage() {
  const { data, error, mutate } = useSWR<ReferralsView>("/api/settings/referrals", fetcher);
  return (
    <SettingsPageFrame title="Referrals">
      {!data ? (
        error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : (
          <LoadingBlock rows={3} />
        )
      ) : (
        <>
          <Typography.Paragraph style={{ margin: 0 }}>
            Share your link. When someone signs up with it and makes their first payment, you get{" "}
            <strong>{creditsLabel(data.referrerCredits)}</strong> and they get{" "}
            <strong>{creditsLabel(data.referredCredits)}</strong>.
          </Typography.Paragraph>
          <Card title="Your referral link">
            <Typography.Paragraph
              copyable={{ text: data.link, tooltips: ["Copy the link", "Copied"] }}
              style={{ margin: 0, overflowWrap: "anywhere" }}
              data-testid="referral-link"
            >
              {data.link}
            </Typography.Paragraph>
          </Card>
          <Card title="Your referrals">
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label="Signed up">
                <span data-testid="referrals-signed-up">{data.signedUp}</span>
              </Descriptions.Item>
              <Descriptions.Item label="Signed up and paid">
                <span data-testid="referrals-paid">{data.paid}</span>
              </Descriptions.Item>
              <Descriptions.Item label="Credits earned">{data.paid * data.referrerCredits}</Descriptions.Item>
            </Descriptions>
          </Card>
        </>
      )}
    </SettingsPageFrame>
  );
}
