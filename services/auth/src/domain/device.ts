import Bowser from "bowser";

/** The device kinds of settings/linked-devices. */
export type DeviceKind = "web" | "mobile" | "chrome";

export interface Device {
  kind: DeviceKind;
  /** "Chrome 126", "" when unknown. */
  browser: string;
  /** "macOS", "" when unknown. */
  os: string;
}

/** The token our Chrome extension puts in its User-Agent (its requests come from the extension). */
export const CHROME_EXTENSION_MARKER = "CrafterChromeExtension";

/**
 * Describes a session's client from its User-Agent: the Chrome extension when it names itself,
 * mobile for phones and tablets, else web.
 */
export function describeDevice(userAgent: string): Device {
  if (!userAgent) return { kind: "web", browser: "", os: "" };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split(".")[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ""}` : "";
  const os = parsed.os.name ?? "";
  if (userAgent.includes(CHROME_EXTENSION_MARKER)) return { kind: "chrome", browser, os };
  const platform = parsed.platform.type;
  return { kind: platform === "mobile" || platform === "tablet" ? "mobile" : "web", browser, os };
}
