import { Button, type ButtonProps } from "antd";
import type { MouseEvent } from "react";
import { useNavigate } from "react-router-dom";

export type LinkButtonProps = Omit<ButtonProps, "href" | "onClick"> & {
  to: string;
  replace?: boolean;
  "data-testid"?: string;
};

/**
 * A button-looking link: an `<a href>` (so it opens in a new tab, and is one interactive element,
 * not a button inside a link) that navigates inside the app on a plain click.
 */
export function LinkButton({ to, replace, ...props }: LinkButtonProps) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return <Button {...props} href={to} onClick={onClick} />;
}
