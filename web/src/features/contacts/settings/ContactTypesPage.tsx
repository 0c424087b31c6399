import { contactKeys } from "../../../api/contacts";
import { SettingsList } from "./SettingsList";

/** /app/settings/contact-type: the contact types a contact may have (lead, customer, partner…). */
export default function ContactTypesPage() {
  return (
    <SettingsList
      path={contactKeys.contactTypes()}
      title="Contact types"
      description="How you classify your contacts, such as lead, customer or partner."
      noun="contact type"
      testId="contact-types"
    />
  );
}
