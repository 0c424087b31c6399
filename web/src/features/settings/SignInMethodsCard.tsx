import { GoogleOutlined, LockOutlined } from "@ant-design/icons";
import { Alert, Button, Card, List, Popconfirm, Tag, Typography } from "antd";
import { useState } from "react";
import { type LinkedIdentity, unlinkIdentity, useLinkedIdentities } from "../../api/auth";
import { isApiError } from "../../api/errors";
import { useAuthActions, useSession } from "../../api/hooks/session";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";

const PROVIDER_TITLE: Record<string, string> = { google: "Google" };

/**
 * The ways into the account (`GET /api/user/identities`): its password, and each linked identity
 * (Google) with its email and when it was linked, which can be unlinked after a confirmation. The
 * server refuses (409) to unlink the only way in; the page then says to set a password first and
 * offers the link that sets one.
 */
export function SignInMethodsCard() {
  const { data, error, mutate } = useLinkedIdentities();
  const { user } = useSession();
  const { forgotPassword } = useAuthActions();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [linkSent, setLinkSent] = useState(false);

  const unlink = async (identity: LinkedIdentity) => {
    setBusy(identity.provider);
    setRefusal(null);
    try {
      await unlinkIdentity(identity.provider);
      notify.success(`${PROVIDER_TITLE[identity.provider] ?? identity.provider} is unlinked`);
      await mutate();
    } catch (failure) {
      if (isApiError(failure) && failure.status === 409) setRefusal(failure.message);
      else notify.error(failure, "Could not unlink");
      if (isApiError(failure) && failure.status === 404) await mutate();
    } finally {
      setBusy(null);
    }
  };

  const sendPasswordLink = async () => {
    if (!user?.email) return;
    setBusy("password");
    try {
      await forgotPassword(user.email);
      setLinkSent(true);
    } catch (failure) {
      notify.error(failure, "Could not send the link");
    } finally {
      setBusy(null);
    }
  };

  const passwordLink = (
    <Button
      onClick={() => void sendPasswordLink()}
      loading={busy === "password"}
      data-testid="signin-methods-set-password"
    >
      Email me a link to set a password
    </Button>
  );

  return (
    <Card title="Sign-in methods" data-testid="signin-methods">
      {!data ? (
        error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : (
          <LoadingBlock rows={2} />
        )
      ) : (
        <>
          {refusal && (
            <Alert
              type="warning"
              showIcon
              role="alert"
              closable
              onClose={() => setRefusal(null)}
              data-testid="signin-methods-refused"
              style={{ marginBottom: 16 }}
              title="Set a password first"
              description={refusal}
            />
          )}
          {linkSent && (
            <Alert
              type="success"
              showIcon
              data-testid="signin-methods-link-sent"
              style={{ marginBottom: 16 }}
              title="Check your email"
              description={
                <>
                  We sent a link to <strong>{user?.email}</strong>. Open it to set your password.
                </>
              }
            />
          )}
          <List itemLayout="horizontal" data-testid="signin-methods-list">
            <List.Item data-testid="signin-method-password" data-linked={String(data.hasPassword)}>
              <List.Item.Meta
                avatar={<LockOutlined aria-hidden />}
                title={<span>Password {data.hasPassword ? <Tag color="green">Set</Tag> : <Tag>Not set</Tag>}</span>}
                description={
                  data.hasPassword ? (
                    "Sign in with your email and password."
                  ) : (
                    <>
                      <div>This account has no password yet: it signs in with Google only.</div>
                      {!linkSent && <div style={{ marginTop: 8 }}>{passwordLink}</div>}
                    </>
                  )
                }
              />
            </List.Item>
            {data.identities.map((identity) => (
              <List.Item
                key={identity.provider}
                data-testid={`signin-method-${identity.provider}`}
                data-linked="true"
                actions={[
                  <Popconfirm
                    key="unlink"
                    title={`Unlink ${PROVIDER_TITLE[identity.provider] ?? identity.provider}?`}
                    description={
                      <span style={{ display: "block", maxWidth: 280 }}>
                        You will no longer sign in with {identity.email}. Signing in with Google and then your password
                        links it again.
                      </span>
                    }
                    okText="Unlink"
                    okButtonProps={{ danger: true }}
                    onConfirm={() => unlink(identity)}
                  >
                    <Button
                      danger
                      loading={busy === identity.provider}
                      disabled={busy !== null}
                      data-testid={`signin-method-unlink-${identity.provider}`}
                    >
                      Unlink
                    </Button>
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  avatar={<GoogleOutlined aria-hidden />}
                  title={
                    <span>
                      {PROVIDER_TITLE[identity.provider] ?? identity.provider} <Tag color="green">Linked</Tag>
                    </span>
                  }
                  description={
                    <span className="crafter-wrap" data-testid={`signin-method-${identity.provider}-details`}>
                      {identity.email}
                      {identity.linkedAt ? ` · linked ${formatDateTime(identity.linkedAt)}` : ""}
                    </span>
                  }
                />
              </List.Item>
            ))}
            {data.googleConfigured && !data.identities.some((identity) => identity.provider === "google") ? (
              <List.Item data-testid="signin-method-google" data-linked="false">
                <List.Item.Meta
                  avatar={<GoogleOutlined aria-hidden />}
                  title={
                    <span>
                      Google <Tag>Not linked</Tag>
                    </span>
                  }
                  description={
                    <Typography.Text type="secondary">
                      {`To link it, sign out, choose Sign in with Google with the Google account of ${user?.email ?? "your email"}, then sign in with your password once.`}
                    </Typography.Text>
                  }
                />
              </List.Item>
            ) : null}
          </List>
        </>
      )}
    </Card>
  );
}
