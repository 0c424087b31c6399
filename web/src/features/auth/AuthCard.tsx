import { Card, Form, Typography } from "antd";
import type { ReactNode } from "react";

/** The centred card of the auth pages; `Form component={false}` gives antd's vertical layout to the
 * react-hook-form `<form>` inside. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="crafter-auth">
      <Card className="crafter-auth__card" variant="borderless">
        <Typography.Title level={2} className="crafter-auth__title">
          {title}
        </Typography.Title>
        {subtitle && <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph>}
        <Form layout="vertical" component={false}>
          {children}
        </Form>
        {footer && <div className="crafter-auth__footer">{footer}</div>}
      </Card>
    </div>
  );
}

/** Puts the server's field errors (envelope `error.fields`) on the form. */
export function applyFieldErrors<T extends string>(
  fields: Record<string, string>,
  setError: (name: T, error: { type: string; message: string }) => void,
  known: readonly T[],
): boolean {
  let applied = false;
  for (const [name, message] of Object.entries(fields)) {
    if ((known as readonly string[]).includes(name)) {
      setError(name as T, { type: "server", message });
      applied = true;
    }
  }
  return applied;
}
