import { emailError } from "@crafter/validation";
import { z } from "zod";

/** The spec's email rule: 'Email is required', then 'Invalid email' (kit/validation/email). */
export const emailField = z.string().superRefine((value, ctx) => {
  const message = emailError(value);
  if (message) ctx.addIssue({ code: "custom", message });
});

export const PASSWORD_MIN = 8;

export const newPasswordField = z
  .string()
  .min(1, "Password is required")
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(256, "Password is too long");

export const signInSchema = z.object({
  email: emailField,
  password: z.string().min(1, "Password is required"),
});
export type SignInValues = z.infer<typeof signInSchema>;

export const signUpSchema = z.object({
  displayName: z.string().trim().max(80, "Name is too long"),
  email: emailField,
  password: newPasswordField,
});
export type SignUpValues = z.infer<typeof signUpSchema>;

export const forgotPasswordSchema = z.object({ email: emailField });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({ password: newPasswordField, confirm: z.string().min(1, "Please repeat the password") })
  .refine((values) => values.password === values.confirm, { message: "Passwords do not match", path: ["confirm"] });
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;
