import { Form } from "antd";
import type { ReactNode } from "react";
import type { FieldError } from "react-hook-form";

export interface FormFieldProps {
  id: string;
  label: ReactNode;
  error?: FieldError | { message?: string };
  required?: boolean;
  extra?: ReactNode;
  children: ReactNode;
}

/** An antd form row (label bound to the control by id, error message) for react-hook-form fields. */
export function FormField({ id, label, error, required, extra, children }: FormFieldProps) {
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      required={required}
      validateStatus={error?.message ? "error" : undefined}
      help={error?.message ? <span id={`${id}-error`}>{error.message}</span> : undefined}
      extra={extra}
    >
      {children}
    </Form.Item>
  );
}
