import { useEffect } from "react";
import { PrimaryButton, StatusMessage } from "./page-status";

/** Spec section 8: local storage is cleared, then 'Oops, there is an error!' with 'Try again?'. */
export function clearLocalState(): void {
  try {
    window.localStorage.clear();
  } catch {
    // Storage may be unavailable; the reload still happens.
  }
}

export function CrashScreen() {
  useEffect(() => {
    clearLocalState();
  }, []);
  return (
    <div style={{ minHeight: "100vh", display: "grid", placeItems: "center" }} data-testid="crash-screen">
      <StatusMessage
        status="error"
        title="Oops, there is an error!"
        extra={
          <PrimaryButton data-testid="crash-retry" onClick={() => window.location.assign("/")}>
            Try again?
          </PrimaryButton>
        }
      />
    </div>
  );
}
