/**
 * Who a use case acts for, free of any transport (routes build it with `callerOf(ctx)` from
 * rpc/caller.ts; use cases and domain code never see a HandlerContext).
 */
export interface Caller {
  /** The user acted for ("" for a service acting for nobody). */
  userId: string;
  /** The user's role; "service" for a service token. */
  role: string;
  /** The bearer token the call came with, to forward on behalf of the user. */
  token: string | undefined;
  /** Aborts when the call is cancelled or its deadline passes. */
  signal: AbortSignal;
  /** The calling service's name when a service token was used. */
  service: string | undefined;
  /**
   * The team member acting in `userId`'s data with a delegated token (`act.sub`), to
   * record as the author of a change; absent when the user acts for themselves.
   */
  actorUserId?: string;
  /**
   * The one project a delegated token may work in (its `pid` claim); absent for the user's own token.
   * Reads by id of project data check it, so a member never reaches the owner's other projects.
   */
  delegatedProjectId?: string;
}
