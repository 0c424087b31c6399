/** A user's project: every contacts read and write is within one (ids from the caller's token and the request). */
export interface Scope {
  userId: string;
  projectId: string;
}
