import { Component, type ErrorInfo, type ReactNode } from "react";
import { CrashScreen, clearLocalState } from "./CrashScreen";

interface State {
  crashed: boolean;
}

/** Catches render crashes outside the router (spec section 4, "Render crash"). */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { crashed: false };

  static getDerivedStateFromError(): State {
    return { crashed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    clearLocalState();
    console.error("Render crash", error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.crashed ? <CrashScreen /> : this.props.children;
  }
}
