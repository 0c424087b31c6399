import { ERROR_CATALOGUE } from "@crafter/kit/errors";
import { App } from "antd";
import { useCallback } from "react";
import { Link, useNavigate } from "react-router-dom";
import { isApiError } from "../../api/errors";
import { notify } from "../../shared/notify";

/**
 * Shows a failed craft call the way spec section 8 asks: titled dialogs for the codes that have
 * one, the subscription modal, the credits notice, else an error toast with the message rule.
 */
export function useCraftErrorHandler() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  return useCallback(
    (error: unknown, title = "Crafting failed") => {
      const code = isApiError(error) ? error.code : null;
      const serverMessage = isApiError(error) ? error.serverMessage : null;
      switch (code) {
        case "ConflictingInputError":
          modal.warning({ title: "Warning", content: serverMessage ?? ERROR_CATALOGUE.ConflictingInputError.message });
          return;
        case "ReachedMaxResults":
          modal.warning({
            title: "Maximum result limit reached.",
            content: "Please delete poor results before generating more.",
          });
          return;
        case "NEED_SUBSCRIPTION":
          modal.confirm({
            title: "Keep Crafting Uninterrupted!",
            content: "Your free credit has ended. Upgrade your plan to keep crafting without interruption.",
            okText: "Upgrade now",
            cancelText: "Not now",
            // The subscription page is not built yet: settings hosts the account for now.
            onOk: () => navigate("/app/settings?source=upgrade_modal"),
          });
          return;
        case "NOT_ENOUGH_CREDITS":
          notify.warning(
            "Not enough credits.",
            <Link to="/app/settings" data-testid="add-credits">
              Add more credits
            </Link>,
          );
          return;
        default:
          notify.error(error, title);
      }
    },
    [modal, navigate],
  );
}
