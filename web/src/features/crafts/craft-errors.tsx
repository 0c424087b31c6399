import { App } from "antd";
import { useCallback } from "react";
import { Link, useNavigate } from "react-router-dom";
import { notify } from "../../shared/notify";
import { describeCraftError } from "./craft-error-catalogue";

/**
 * Shows a failed craft call the way spec section 8 asks (mapping in craft-error-catalogue.ts):
 * titled dialogs, the subscription modal, the credits notice, else an error toast (at most 3 at
 * once, hidden after 5000 ms: NOTIFICATION_CONFIG).
 */
export function useCraftErrorHandler() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  return useCallback(
    (error: unknown, title = "Crafting failed") => {
      const view = describeCraftError(error, title);
      switch (view.kind) {
        case "dialog":
          modal.warning({
            title: view.title,
            content: <span data-testid={`dialog-${view.code}`}>{view.message}</span>,
          });
          return;
        case "subscription":
          modal.confirm({
            title: view.title,
            content: (
              <span data-testid="upgrade-modal" data-scenario={view.scenario}>
                {view.message}
              </span>
            ),
            okText: view.okText,
            okButtonProps: { "data-testid": "upgrade-now" },
            cancelText: "Not now",
            onOk: () => navigate(view.href),
          });
          return;
        case "credits":
          notify.warning(
            view.title,
            <Link to={view.href} data-testid="add-credits">
              {view.linkText}
            </Link>,
          );
          return;
        default:
          notify.errorMessage(view.title, view.message);
      }
    },
    [modal, navigate],
  );
}
