import { CloseCircleFilled, ExclamationCircleFilled } from "@ant-design/icons";
import { Flex, Spin, theme } from "antd";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { errorMessage } from "../api/errors";

/**
 * The states every page load can show before any page's code arrives: the loading spinner, the
 * session check's failure and the crash screen. They are part of the first load, so they are drawn
 * without antd's Result (its three illustrations weigh about 10 KB gzipped) and Button (another
 * 10 KB with its styles); pages use `ErrorState` (states.tsx) and antd's Button.
 */
export function FullPageSpin({ label = "Loading" }: { label?: string }) {
  return (
    <Flex
      align="center"
      justify="center"
      style={{ minHeight: "60vh" }}
      role="status"
      aria-label={label}
      data-testid="page-loading"
    >
      <Spin size="large" />
    </Flex>
  );
}

/** A centred icon, title, message and actions, in the current theme's colours. */
export function StatusMessage({
  status,
  title,
  subTitle,
  extra,
  testId,
}: {
  status: "error" | "warning";
  title: ReactNode;
  subTitle?: ReactNode;
  extra?: ReactNode;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const Icon = status === "error" ? CloseCircleFilled : ExclamationCircleFilled;
  return (
    <Flex vertical align="center" gap={12} role="alert" data-testid={testId} style={{ padding: "48px 32px" }}>
      <Icon aria-hidden style={{ fontSize: 72, color: status === "error" ? token.colorError : token.colorWarning }} />
      <h1 style={{ margin: 0, fontSize: 24, fontWeight: 500, color: token.colorTextHeading, textAlign: "center" }}>
        {title}
      </h1>
      {subTitle ? (
        <p style={{ margin: 0, fontSize: 14, color: token.colorTextDescription, textAlign: "center" }}>{subTitle}</p>
      ) : null}
      {extra ? <div style={{ marginTop: 12 }}>{extra}</div> : null}
    </Flex>
  );
}

/** A primary button in the theme's colours (antd's Button look, without its code). */
export function PrimaryButton(props: ButtonHTMLAttributes<HTMLButtonElement>) {
  const { token } = theme.useToken();
  return (
    <button
      type="button"
      {...props}
      style={{
        height: token.controlHeight,
        padding: `0 ${token.paddingContentHorizontal}px`,
        border: "none",
        borderRadius: token.borderRadius,
        background: token.colorPrimary,
        color: token.colorTextLightSolid,
        fontSize: token.fontSize,
        fontFamily: "inherit",
        boxShadow: `0 2px 0 ${token.colorPrimaryBg}`,
        cursor: "pointer",
        ...props.style,
      }}
    />
  );
}

/** The session check failed (network, server): its reason and a retry. */
export function SessionError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <StatusMessage
      status="warning"
      title="We could not check your session"
      subTitle={errorMessage(error)}
      testId="error-state"
      extra={<PrimaryButton onClick={onRetry}>Try again</PrimaryButton>}
    />
  );
}
