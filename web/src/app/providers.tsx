import type { ReactNode } from "react";
import { SWRConfig, type SWRConfiguration } from "swr";
import { fetcher } from "../api/api";
import { isApiError } from "../api/errors";
import { keys } from "../api/keys";
import { ErrorBoundary } from "../shared/ErrorBoundary";
import { notify } from "../shared/notify";
import { ThemeProvider } from "./theme";

/** SWR for every read, without refetch on focus and without retry (spec section 9). */
export const swrConfig: SWRConfiguration = {
  fetcher,
  revalidateOnFocus: false,
  shouldRetryOnError: false,
  onError(error, key) {
    // The session check answers "not logged in" with a 401; a dead session already redirects.
    if (key === keys.session()) return;
    if (isApiError(error) && error.status === 401) return;
    notify.error(error, "Could not load data");
  },
};

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary>
      <ThemeProvider>
        <SWRConfig value={swrConfig}>{children}</SWRConfig>
      </ThemeProvider>
    </ErrorBoundary>
  );
}
