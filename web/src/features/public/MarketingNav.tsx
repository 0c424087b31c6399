import { Link } from "react-router-dom";
import { PUBLIC_PAGES } from "./pages";

/** The public site's links, shown on each marketing page. */
export function MarketingNav({ current }: { current: string }) {
  return (
    <nav aria-label="Site" className="crafter-site-nav">
      <ul>
        {PUBLIC_PAGES.map((page) => (
          <li key={page.path}>
            <Link to={page.path} aria-current={page.path === current ? "page" : undefined}>
              {page.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
