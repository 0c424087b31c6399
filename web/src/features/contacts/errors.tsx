import { App } from "antd";
import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { notify } from "../../shared/notify";
import { type ContactErrorView, describeContactError } from "./limits";

/** Shows a contact view: the upgrade modal (spec "Upgrade prompts") or an error toast. */
export function useShowContactError() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  return useCallback(
    (view: ContactErrorView) => {
      if (view.kind === "upgrade") {
        modal.confirm({
          title: view.title,
          content: (
            <span data-testid="upgrade-modal" data-scenario={view.code}>
              {view.message} Upgrade to {view.plan} to keep adding contacts.
            </span>
          ),
          okText: `Upgrade to ${view.plan}`,
          okButtonProps: { "data-testid": "upgrade-now" },
          cancelText: "Not now",
          onOk: () => navigate(view.href),
        });
      } else if (view.kind === "limit") {
        modal.warning({ title: view.title, content: <span data-testid="limit-modal">{view.message}</span> });
      } else {
        notify.errorMessage(view.title, view.message);
      }
    },
    [modal, navigate],
  );
}

/** Shows a failed contacts call (see describeContactError). */
export function useContactErrorHandler() {
  const show = useShowContactError();
  return useCallback(
    (error: unknown, title = "Something went wrong") => show(describeContactError(error, title)),
    [show],
  );
}
