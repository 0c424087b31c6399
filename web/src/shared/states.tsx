import { Button, Empty, Result, Skeleton } from "antd";
import type { ReactNode } from "react";
import { errorMessage } from "../api/errors";

export { FullPageSpin } from "./page-status";

export function LoadingBlock({ rows = 4, testId }: { rows?: number; testId?: string }) {
  return (
    <div role="status" aria-label="Loading" data-testid={testId}>
      <Skeleton active paragraph={{ rows }} />
    </div>
  );
}

export function ErrorState({
  error,
  onRetry,
  title = "We could not load this",
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <Result
      status="warning"
      title={title}
      subTitle={errorMessage(error)}
      data-testid="error-state"
      extra={
        onRetry ? (
          <Button type="primary" onClick={onRetry}>
            Try again
          </Button>
        ) : undefined
      }
    />
  );
}

export function EmptyState({
  description,
  action,
  testId,
}: {
  description: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <Empty description={description} data-testid={testId}>
      {action}
    </Empty>
  );
}
