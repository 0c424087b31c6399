import { Button, Result } from "antd";
import { useEffect } from "react";

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
      <Result
        status="error"
        title="Oops, there is an error!"
        extra={
          <Button type="primary" data-testid="crash-retry" onClick={() => window.location.assign("/")}>
            Try again?
          </Button>
        }
      />
    </div>
  );
}
