import { contactKeys } from "../../../api/contacts";
import { SettingsList } from "./SettingsList";

/** /app/settings/custom-fields: text, number, date, select (with options) or boolean fields of contacts. */
export default function CustomFieldsPage() {
  return (
    <SettingsList
      path={contactKeys.customFields()}
      title="Custom fields"
      description="Extra fields of your contacts. They appear in the contacts table, the contact form, segments and the CSV import."
      noun="custom field"
      testId="custom-fields"
      typed
    />
  );
}
