// The designer's fonts, bundled from @fontsource (latin subsets; no outside font host at run time).
import "@fontsource/inter/latin-400.css";
import "@fontsource/inter/latin-700.css";
import "@fontsource/montserrat/latin-400.css";
import "@fontsource/montserrat/latin-700.css";
import "@fontsource/playfair-display/latin-400.css";
import "@fontsource/playfair-display/latin-700.css";
import { FONTS } from "./model";

/** Loads every bundled family and weight (canvas text needs the faces before it is measured). */
export async function loadDesignerFonts(): Promise<void> {
  if (typeof document === "undefined" || !document.fonts) return;
  await Promise.all(
    FONTS.flatMap((font) =>
      font.weights.map((weight) => document.fonts.load(`${weight} 32px "${font.family}"`).catch(() => [])),
    ),
  );
}
