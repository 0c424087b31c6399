import { App as AntApp } from "antd";
import { type ReactNode, useEffect } from "react";
import { NOTIFICATION_CONFIG, registerNotificationApi } from "../shared/notify";

/** Makes the App-scoped notification instance the one `notify` uses. */
function NotificationBridge() {
  const { notification } = AntApp.useApp();
  useEffect(() => {
    registerNotificationApi(notification);
    return () => registerNotificationApi(null);
  }, [notification]);
  return null;
}

/**
 * antd's App around every layout: the message, modal and notification hooks pages call (themed by
 * the ConfigProvider above it) and the toasts of `notify`. It is its own chunk, fetched as soon as
 * the app starts (router.tsx): the modal and message code it carries is not needed to draw a page.
 */
export default function AntAppFrame({ children }: { children: ReactNode }) {
  return (
    <AntApp notification={NOTIFICATION_CONFIG} className="crafter-app">
      <NotificationBridge />
      {children}
    </AntApp>
  );
}
