import { Input } from "antd";
import type { ReactNode } from "react";
import { type Control, Controller, type FieldError, type FieldValues, type Path } from "react-hook-form";
import { FormField } from "../../shared/FormField";

interface AuthFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  /** The input's id, label target and data-testid. */
  id: string;
  label: string;
  error?: FieldError;
  kind?: "text" | "email" | "password";
  autoComplete: string;
  required?: boolean;
  autoFocus?: boolean;
  extra?: ReactNode;
}

/** One labelled, large text/email/password input of the auth pages, bound to react-hook-form. */
export function AuthField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  error,
  kind = "text",
  autoComplete,
  required,
  autoFocus,
  extra,
}: AuthFieldProps<T>) {
  const Component = kind === "password" ? Input.Password : Input;
  return (
    <FormField id={id} label={label} error={error} required={required} extra={extra}>
      <Controller
        name={name}
        control={control}
        render={({ field }) => (
          <Component
            {...field}
            id={id}
            type={kind === "email" ? "email" : undefined}
            autoComplete={autoComplete}
            autoFocus={autoFocus}
            size="large"
            status={error ? "error" : undefined}
            aria-invalid={!!error}
            data-testid={id}
          />
        )}
      />
    </FormField>
  );
}
