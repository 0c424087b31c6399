import { Button, Card, Flex, Result } from "antd";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { errorMessage } from "../../api/errors";
import { confirmConsent, type PublicBrand } from "../../api/leads";
import { LoadingBlock } from "../../shared/states";
import { BusinessBrand } from "./BusinessBrand";

type State = { kind: "loading" } | { kind: "done"; business?: PublicBrand } | { kind: "failed"; message: string };

/**
 * /confirm?token=: the double opt-in link of the confirmation email; confirming subscribes the
 * contact, and the page then shows the business's name and logo (the answer names them).
 */
export default function ConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [state, setState] = useState<State>({ kind: "loading" });
  const sent = useRef<string | null>(null);

  const confirm = (value: string) => {
    setState({ kind: "loading" });
    confirmConsent(value)
      .then((answer) => setState({ kind: "done", business: answer?.business }))
      .catch((error) => setState({ kind: "failed", message: errorMessage(error) }));
  };

  useEffect(() => {
    if (!token) {
      setState({ kind: "failed", message: "This link is incomplete. Open the link from the email again." });
      return;
    }
    if (sent.current === token) return; // once per token, also under StrictMode's double effect
    sent.current = token;
    confirm(token);
  }, [token]);

  return (
    <Flex justify="center" style={{ padding: "48px 16px" }}>
      <Card style={{ width: "100%", maxWidth: 560 }}>
        {state.kind === "loading" ? (
          <LoadingBlock rows={3} />
        ) : state.kind === "done" ? (
          <>
            <BusinessBrand brand={state.business} page="Subscription confirmed" centered />
            <Result
              status="success"
              title="Your email is confirmed"
              subTitle={
                state.business?.name
                  ? `You are subscribed to ${state.business.name}. Thank you!`
                  : "You are subscribed. Thank you!"
              }
              data-testid="confirm-done"
            />
          </>
        ) : (
          <Result
            status="warning"
            title="We could not confirm your email"
            subTitle={state.message}
            data-testid="confirm-failed"
            extra={token ? <Button onClick={() => confirm(token)}>Try again</Button> : undefined}
          />
        )}
      </Card>
    </Flex>
  );
}
