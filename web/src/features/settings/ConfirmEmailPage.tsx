import { useSWRConfig } from "swr";
import { api } from "../../api/api";
import { keys } from "../../api/keys";
import { TokenLinkPage } from "../../shared/TokenLinkPage";
import { settingsPaths } from "./settings-api";

/** /confirm-email?token=…: the link sent to a new address applies the email change (issue 14). */
export default function ConfirmEmailPage() {
  const { mutate } = useSWRConfig();
  return (
    <TokenLinkPage<{ email: string }>
      path={settingsPaths.confirmEmail}
      pendingTitle="Changing your email…"
      doneTitle="Your email is changed"
      doneText={(result) => `Sign in with ${result?.email ?? ""} from now on.`}
      failedTitle="Your email could not be changed"
      // Signed in, the header and account pages show the new address at once.
      afterDone={() => (api.hasSession() ? Promise.all([mutate(keys.account()), mutate(keys.initial())]) : undefined)}
      next={{ signedIn: "/app/settings/account-info", signedOut: "/signin" }}
      testId="confirm-email"
    />
  );
}
