import type { ProfileTypeName } from "@crafter/validation";
import { useCallback, useSyncExternalStore } from "react";
import { useInitial } from "../../api/hooks/app";

/**
 * The context (spec section 3: "active profile with profileId and profileType"): which profile of
 * the active project a new craft writes for. It is the one slice persisted locally (spec section 7:
 * key `webapp`, version 4). A context saved for another project is ignored, so a project switch
 * falls back to the new project's business profile.
 */
export interface ActiveProfile {
  projectId: string;
  profileId: string;
  profileType: ProfileTypeName;
  /** Shown in the selector before the profiles list has loaded. */
  name?: string;
}

export const PERSIST_KEY = "webapp";
export const PERSIST_VERSION = 4;

interface Persisted {
  version: number;
  profile: { activeProfile: ActiveProfile | null };
}

const listeners = new Set<() => void>();
let cached: { raw: string | null; value: ActiveProfile | null } = { raw: null, value: null };

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Reads the persisted slice; anything unreadable or of another version counts as none. */
export function parsePersisted(raw: string | null): ActiveProfile | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Persisted;
    const active = parsed?.version === PERSIST_VERSION ? parsed.profile?.activeProfile : null;
    return active && typeof active.profileId === "string" && typeof active.projectId === "string" ? active : null;
  } catch {
    return null;
  }
}

function read(): ActiveProfile | null {
  const raw = storage()?.getItem(PERSIST_KEY) ?? null;
  if (raw !== cached.raw) cached = { raw, value: parsePersisted(raw) };
  return cached.value;
}

/** Chooses the profile new crafts write for (null: the business profile). */
export function setActiveProfile(active: ActiveProfile | null): void {
  const persisted: Persisted = { version: PERSIST_VERSION, profile: { activeProfile: active } };
  storage()?.setItem(PERSIST_KEY, JSON.stringify(persisted));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === PERSIST_KEY && listener();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/**
 * The context of the active project: the chosen profile, else the business (PROJECT) profile;
 * null before the initial state has loaded or without a project.
 */
export function useActiveProfile(): ActiveProfile | null {
  const stored = useSyncExternalStore(subscribe, read, () => null);
  const { data } = useInitial();
  const project = data?.activeProjectInfo;
  if (!project?.projectId) return null;
  if (stored && stored.projectId === project.projectId) return stored;
  const business = project.profile;
  return business
    ? { projectId: project.projectId, profileId: business.profileId, profileType: "PROJECT", name: business.name }
    : null;
}

/** A setter bound to nothing, for components that only choose. */
export function useSetActiveProfile() {
  return useCallback((active: ActiveProfile | null) => setActiveProfile(active), []);
}
