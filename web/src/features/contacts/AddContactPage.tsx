import { Card, Flex, Typography } from "antd";
import { useNavigate } from "react-router-dom";
import { useContactWrites, useCustomFields } from "../../api/contacts";
import { isApiError } from "../../api/errors";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { ContactForm } from "./ContactForm";
import { useContactErrorHandler } from "./errors";
import { CONTACT_PAGES } from "./paths";
import { emptyContactForm, toContactInput } from "./schema";

/** /app/contacts/add: one contact, built-in and custom fields (react-hook-form + zod). */
export default function AddContactPage() {
  const navigate = useNavigate();
  const customFields = useCustomFields();
  const writes = useContactWrites();
  const onError = useContactErrorHandler();

  let body: React.ReactNode;
  if (customFields.error && !customFields.data) {
    body = <ErrorState error={customFields.error} onRetry={() => void customFields.mutate()} />;
  } else if (!customFields.data) {
    body = <LoadingBlock rows={6} />;
  } else {
    const fields = customFields.data;
    body = (
      <ContactForm
        customFields={fields}
        defaultValues={emptyContactForm(fields)}
        submitLabel="Add contact"
        onCancel={() => navigate(CONTACT_PAGES.contacts)}
        onSubmit={async (values) => {
          try {
            const contact = await writes.create(toContactInput(values, fields));
            notify.success("Contact added", contact.email);
            navigate(CONTACT_PAGES.contact(contact.id));
            return undefined;
          } catch (error) {
            if (isApiError(error) && error.code === "CONTACT_EXISTS") {
              return { email: "A contact with this email already exists" };
            }
            if (isApiError(error) && Object.keys(error.fields).length > 0) return error.fields;
            onError(error, "Could not add the contact");
            return undefined;
          }
        }}
      />
    );
  }

  return (
    <Flex vertical gap={16} style={{ maxWidth: 880 }}>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Add a contact
        </Typography.Title>
        <Typography.Text type="secondary">
          Only the email is required. Custom fields come from Settings › Custom fields.
        </Typography.Text>
      </div>
      <Card>{body}</Card>
    </Flex>
  );
}
