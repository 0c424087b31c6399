// Compile-time checks of the typed client (`make typecheck` fails when one breaks): each line
// marked as an expected error must stay an error, every other line must stay valid.
import { apiKey, http } from "./api";

export async function typedCallsCompile() {
  const page = await http.get("/api/contacts", { query: { q: "ada", page: 2 } });
  const count: number = page.meta.count;
  const contact = await http.get("/api/contacts/{id}", { path: { id: "c1" } });
  const email: string = contact.email;
  // @ts-expect-error the path parameter is required
  await http.get("/api/contacts/{id}");
  // @ts-expect-error a query parameter the route does not take
  await http.get("/api/contacts", { query: { page: "2" } });
  await http.post("/api/contacts", { body: { email: "ada@example.com" } });
  // @ts-expect-error a body the route does not take
  await http.post("/api/contacts", { body: { emial: "ada@example.com" } });
  await http.del("/api/contacts/{id}", { path: { id: "c1" } });
  // @ts-expect-error no such route
  await http.get("/api/nowhere");
  const key: string = apiKey("/api/contacts", { query: { page: 2 } });
  return [count, email, key];
}
