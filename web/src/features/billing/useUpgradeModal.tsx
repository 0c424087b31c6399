import { App } from "antd";
import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { isApiError } from "../../api/errors";
import { upgradeView } from "./upgrade";

/**
 * Opens the upgrade modal for an error that is one of its scenarios (NEED_SUBSCRIPTION or a plan
 * limit, see upgrade.ts): "Upgrade now" goes to the subscription page with source=upgrade_modal
 * and the suggested plan. @returns whether it opened (false: show the error another way).
 */
export function useUpgradeModal(): (error: unknown) => boolean {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  return useCallback(
    (error: unknown) => {
      const view = upgradeView(isApiError(error) ? error.code : null);
      if (!view) return false;
      modal.confirm({
        title: view.title,
        content: (
          <span data-testid="upgrade-modal" data-scenario={view.scenario} data-suggests={view.suggests}>
            {view.message}
          </span>
        ),
        okText: view.okText,
        okButtonProps: { "data-testid": "upgrade-now" } as Record<string, string>,
        cancelText: "Not now",
        onOk: () => navigate(view.href),
      });
      return true;
    },
    [modal, navigate],
  );
}
