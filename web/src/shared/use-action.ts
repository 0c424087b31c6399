import { useCallback, useRef, useState } from "react";
import { useSWRConfig } from "swr";
import { notify } from "./notify";

/** A cached read to revalidate after a write: its exact SWR key, or a matcher over keys. */
export type Revalidate = string | ((key: unknown) => boolean);

export interface ActionOptions<R> {
  /** The error toast's title ("Could not save the segment"); the message follows spec section 8. */
  error: string;
  /** A success toast, fixed or from the result. */
  success?: string | ((result: R) => string);
  /** Reads to revalidate after a success; awaited before `run` resolves. */
  revalidate?: Revalidate[];
  /** Takes an error before the toast (a field error shown on its field); true: handled, no toast. */
  onError?: (error: unknown) => boolean | undefined;
}

export interface ActionDeps {
  mutate: (key: Revalidate) => Promise<unknown>;
  notifyError: (error: unknown, title: string) => void;
  notifySuccess: (title: string) => void;
}

/**
 * One write with the web's conventions: revalidate the named reads and toast on success; on a
 * failure, `onError` first, else an error toast. Resolves with the result, or undefined after a
 * failure (which is never rethrown: the toast is the answer).
 */
export async function runAction<R>(
  action: () => Promise<R>,
  options: ActionOptions<R>,
  deps: ActionDeps,
): Promise<R | undefined> {
  let result: R;
  try {
    result = await action();
  } catch (error) {
    if (!options.onError?.(error)) deps.notifyError(error, options.error);
    return undefined;
  }
  await Promise.all((options.revalidate ?? []).map((key) => deps.mutate(key).catch(() => undefined)));
  const success = typeof options.success === "function" ? options.success(result) : options.success;
  if (success) deps.notifySuccess(success);
  return result;
}

/**
 * A write as a hook: `run(...args)` calls `action` through `runAction`; `pending` is true while a
 * run is under way (for a button's loading state).
 *
 *   const remove = useAction(deleteSegment, { error: "Could not delete", revalidate: [contactKeys.segments()] });
 *   <Button loading={remove.pending} onClick={() => remove.run(id)} />
 */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>, options: ActionOptions<R>) {
  const { mutate } = useSWRConfig();
  const [running, setRunning] = useState(0);
  const latest = useRef({ action, options });
  latest.current = { action, options };
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setRunning((count) => count + 1);
      try {
        return await runAction(() => latest.current.action(...args), latest.current.options, {
          mutate: (key) => mutate(key),
          notifyError: (error, title) => notify.error(error, title),
          notifySuccess: (title) => notify.success(title),
        });
      } finally {
        setRunning((count) => count - 1);
      }
    },
    [mutate],
  );
  return { run, pending: running > 0 };
}
