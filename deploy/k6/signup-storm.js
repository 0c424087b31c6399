// Sign-up storm: every iteration is a new person signing up, opening the emailed link, and signing in.
// k6 run -e BASE_URL=… -e VUS=20 -e DURATION=2m deploy/k6/signup-storm.js
import { sleep } from "k6";
import { options as baseOptions, env, newVerifiedSession } from "./lib.js";

// Sign-up and sign-in each hash a password with argon2: they are meant to be slow.
export const options = baseOptions(2000);

export default function () {
  newVerifiedSession("signup");
  sleep(env.think);
}
