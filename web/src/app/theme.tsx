import { theme as antTheme, ConfigProvider, type ThemeConfig } from "antd";
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from "react";

/**
 * Three looks (DESIGN section 7): the marketing theme of the public pages and the light and dark
 * admin themes of /app (the user's `theme` setting). One ConfigProvider at the root, so toasts and
 * modals (antd's App, ant-app.tsx, inside it) always follow the current look.
 */
export type ThemeMode = "marketing" | "light" | "dark";

const BRAND = "#5b3df5";

/** antd's theme per look (the prerendered public pages use `marketing`). */
export const THEMES: Record<ThemeMode, ThemeConfig> = {
  marketing: {
    algorithm: antTheme.defaultAlgorithm,
    token: {
      colorPrimary: BRAND,
      colorInfo: BRAND,
      colorLink: BRAND,
      borderRadius: 10,
      fontSize: 15,
      colorBgLayout: "#f7f5ff",
      // antd's 45 % black is 3.3:1 on this background; WCAG AA wants 4.5:1 for body text.
      colorTextSecondary: "rgba(0, 0, 0, 0.65)",
      colorTextDescription: "rgba(0, 0, 0, 0.65)",
    },
  },
  light: {
    algorithm: antTheme.defaultAlgorithm,
    token: { colorPrimary: BRAND, colorInfo: BRAND, colorLink: BRAND, borderRadius: 8 },
    components: {
      Layout: { siderBg: "#ffffff", headerBg: "#ffffff", triggerBg: "#ffffff", triggerColor: "rgba(0, 0, 0, 0.65)" },
    },
  },
  dark: {
    algorithm: antTheme.darkAlgorithm,
    token: { colorPrimary: "#7c66ff", colorInfo: "#7c66ff", colorLink: "#9d8cff", borderRadius: 8 },
    components: {
      Layout: {
        siderBg: "#141414",
        headerBg: "#141414",
        triggerBg: "#141414",
        triggerColor: "rgba(255, 255, 255, 0.65)",
      },
    },
  },
};

interface ThemeModeValue {
  mode: ThemeMode;
  setMode: (mode: ThemeMode) => void;
}

const ThemeModeContext = createContext<ThemeModeValue>({ mode: "marketing", setMode: () => {} });

export function useThemeMode(): ThemeModeValue {
  return useContext(ThemeModeContext);
}

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

/** Whether the user asked their system for less motion (WCAG 2.3.3); follows changes. */
function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(
    () => typeof window !== "undefined" && Boolean(window.matchMedia?.(REDUCED_MOTION).matches),
  );
  useEffect(() => {
    if (!window.matchMedia) return;
    const query = window.matchMedia(REDUCED_MOTION);
    const changed = () => setReduced(query.matches);
    query.addEventListener("change", changed);
    return () => query.removeEventListener("change", changed);
  }, []);
  return reduced;
}

/** The look's antd theme, without antd's animations when the user prefers reduced motion. */
export function themeFor(mode: ThemeMode, reducedMotion: boolean): ThemeConfig {
  const look = THEMES[mode];
  return reducedMotion ? { ...look, token: { ...look.token, motion: false } } : look;
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>("marketing");
  const reducedMotion = usePrefersReducedMotion();
  const theme = useMemo(() => themeFor(mode, reducedMotion), [mode, reducedMotion]);
  const value = useMemo(() => ({ mode, setMode }), [mode]);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode === "dark" ? "dark" : "light";
  }, [mode]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ConfigProvider theme={theme}>{children}</ConfigProvider>
    </ThemeModeContext.Provider>
  );
}
