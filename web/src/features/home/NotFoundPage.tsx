import { Result } from "antd";
import { useLocation } from "react-router-dom";
import { LinkButton } from "../../shared/LinkButton";

export default function NotFoundPage() {
  const { pathname } = useLocation();
  const inApp = pathname.startsWith("/app");
  return (
    <Result
      status="404"
      title="Page not found"
      subTitle="The page you're looking for can't be found. It may have been moved or deleted."
      data-testid="not-found"
      extra={
        <LinkButton to={inApp ? "/app/dashboard" : "/"} type="primary">
          {inApp ? "Back to the dashboard" : "Back home"}
        </LinkButton>
      }
    />
  );
}
