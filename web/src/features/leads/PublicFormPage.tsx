import { PublicForm } from "./public-form";

/** /f/:formId: a business's lead form, for anyone (no session). */
export default function PublicFormPage() {
  return <PublicForm framed />;
}
