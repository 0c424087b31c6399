import { contactKeys } from "../../../api/contacts";
import { SettingsList } from "./SettingsList";

/** /app/settings/interaction-types: the kinds of the contact interaction timeline (call, meeting…). */
export default function InteractionTypesPage() {
  return (
    <SettingsList
      path={contactKeys.interactionTypes()}
      title="Interaction types"
      description="The kinds of interactions you log on a contact's timeline, such as a call or a meeting. Segments can count them."
      noun="interaction type"
      testId="interaction-types"
    />
  );
}
