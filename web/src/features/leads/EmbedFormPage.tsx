import { PublicForm } from "./public-form";

// The public layout's header and footer are hidden inside the iframe of the embed snippet.
const FRAMELESS =
  ".crafter-public__header,.crafter-public__footer{display:none!important}.crafter-public,.crafter-public__content{background:transparent!important;min-height:0!important;padding:0!important}";

/** /f/:formId/embed: the form without the site's frame, for the iframe and script-tag snippets. */
export default function EmbedFormPage() {
  return (
    <>
      <style>{FRAMELESS}</style>
      <PublicForm framed={false} />
    </>
  );
}
