import { instantAt } from "@crafter/time";
import { describe, expect, it } from "@jest/globals";
import { isReleased, releaseAtFor, releaseProgress, releasesOf, startOfSending } from "../src/domain/campaign-release";

const LONDON = "Europe/London";
const LA = "America/Los_Angeles";
const at = (text: string) => new Date(text);

describe("releaseAtFor", () => {
  it("releases 09:00 London on the Sunday the clocks go forward at 09:00 on each contact's own clock", () => {
    // Sunday 29 March 2026: London goes from GMT to BST at 01:00 UTC; 09:00 BST is 08:00 UTC.
    const scheduled = instantAt("2026-03-29T09:00", LONDON)!;
    expect(scheduled).toEqual(at("2026-03-29T08:00:00Z"));
    expect(releaseAtFor(scheduled, LONDON, LONDON)).toEqual(at("2026-03-29T08:00:00Z"));
    // Los Angeles has been on PDT (UTC-7) since 8 March: 09:00 PDT is 16:00 UTC.
    expect(releaseAtFor(scheduled, LONDON, LA)).toEqual(at("2026-03-29T16:00:00Z"));
    expect(releaseAtFor(scheduled, LONDON, "Asia/Tokyo")).toEqual(at("2026-03-29T00:00:00Z"));
    // An alias is its canonical zone.
    expect(releaseAtFor(scheduled, LONDON, "US/Pacific")).toEqual(at("2026-03-29T16:00:00Z"));
  });

  it("releases the Saturday before at 09:00 GMT in London, an hour later in UTC than the Sunday", () => {
    const saturday = instantAt("2026-03-28T09:00", LONDON)!;
    expect(releaseAtFor(saturday, LONDON, LONDON)).toEqual(at("2026-03-28T09:00:00Z"));
    expect(releaseAtFor(saturday, LONDON, LA)).toEqual(at("2026-03-28T16:00:00Z"));
  });

  it("releases 09:00 Los Angeles around the second Sunday of March on each side's own offset", () => {
    // Saturday 7 March 2026, PST (UTC-8): 17:00 UTC; London is on GMT: 09:00 UTC.
    const saturday = instantAt("2026-03-07T09:00", LA)!;
    expect(releaseAtFor(saturday, LA, LA)).toEqual(at("2026-03-07T17:00:00Z"));
    expect(releaseAtFor(saturday, LA, LONDON)).toEqual(at("2026-03-07T09:00:00Z"));
    // Sunday 8 March 2026, PDT (UTC-7) from 02:00: 16:00 UTC; London still GMT: 09:00 UTC.
    const sunday = instantAt("2026-03-08T09:00", LA)!;
    expect(releaseAtFor(sunday, LA, LA)).toEqual(at("2026-03-08T16:00:00Z"));
    expect(releaseAtFor(sunday, LA, LONDON)).toEqual(at("2026-03-08T09:00:00Z"));
  });

  it("moves a wall-clock time the contact's zone skips forward by the gap", () => {
    // 02:30 on 8 March 2026 does not exist in Los Angeles (02:00 → 03:00): 03:30 PDT, 10:30 UTC.
    const london = instantAt("2026-03-08T02:30", LONDON)!;
    expect(releaseAtFor(london, LONDON, LA)).toEqual(at("2026-03-08T10:30:00Z"));
    // 01:30 on 29 March 2026 does not exist in London: 02:30 BST, 01:30 UTC.
    const la = instantAt("2026-03-29T01:30", LA)!;
    expect(releaseAtFor(la, LA, LONDON)).toEqual(at("2026-03-29T01:30:00Z"));
  });

  it("releases a contact without a zone, or with an unknown one, at the business's own instant", () => {
    const scheduled = instantAt("2026-03-29T09:00", LONDON)!;
    for (const zone of ["", undefined, "Not/AZone", "+01:00"])
      expect(releaseAtFor(scheduled, LONDON, zone)).toEqual(scheduled);
    // A campaign scheduled before the business had a zone reads as UTC.
    expect(releaseAtFor(at("2026-03-29T09:00:00Z"), "", LA)).toEqual(at("2026-03-29T16:00:00Z"));
  });
});

describe("releasesOf", () => {
  it("gives each zone the same instant as releaseAtFor, whatever the order it is asked in", () => {
    const scheduled = instantAt("2026-03-08T09:00", LA)!;
    const releaseOf = releasesOf(scheduled, LA);
    for (const zone of [LONDON, LA, "", LONDON, "Asia/Tokyo", undefined, LA])
      expect(releaseOf(zone)).toEqual(releaseAtFor(scheduled, LA, zone));
  });
});

describe("startOfSending", () => {
  it("starts at the scheduled instant for the business's time", () => {
    const scheduled = instantAt("2026-03-29T09:00", LONDON)!;
    expect(startOfSending(scheduled, LONDON, "business")).toEqual(scheduled);
  });

  it("starts at each contact's local time when the first zone (UTC+14) reaches it, before any release", () => {
    const scheduled = instantAt("2026-03-29T09:00", LONDON)!;
    const start = startOfSending(scheduled, LONDON, "contact");
    // 09:00 in Pacific/Kiritimati (UTC+14) on 29 March is 19:00 UTC on the 28th.
    expect(start).toEqual(at("2026-03-28T19:00:00Z"));
    for (const zone of [LONDON, LA, "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago", ""])
      expect(releaseAtFor(scheduled, LONDON, zone).getTime()).toBeGreaterThanOrEqual(start.getTime());
  });
});

describe("isReleased and releaseProgress", () => {
  const deliveries = [
    { releaseAt: at("2026-03-29T00:00:00Z") },
    { releaseAt: at("2026-03-29T08:00:00Z") },
    { releaseAt: at("2026-03-29T08:00:00Z") },
    { releaseAt: at("2026-03-29T16:00:00Z") },
    {},
  ];

  it("releases a delivery at its instant, not a millisecond before; one without an instant at once", () => {
    expect(isReleased(deliveries[1]!, at("2026-03-29T07:59:59.999Z"))).toBe(false);
    expect(isReleased(deliveries[1]!, at("2026-03-29T08:00:00Z"))).toBe(true);
    expect(isReleased({}, at("2000-01-01T00:00:00Z"))).toBe(true);
  });

  it("counts the released deliveries and names the next instant", () => {
    expect(releaseProgress(deliveries, at("2026-03-28T23:00:00Z"))).toEqual({
      released: 1,
      total: 5,
      nextAt: at("2026-03-29T00:00:00Z"),
    });
    expect(releaseProgress(deliveries, at("2026-03-29T08:00:00Z"))).toEqual({
      released: 4,
      total: 5,
      nextAt: at("2026-03-29T16:00:00Z"),
    });
    expect(releaseProgress(deliveries, at("2026-03-29T16:00:00Z"))).toEqual({ released: 5, total: 5, nextAt: null });
    expect(releaseProgress([], at("2026-03-29T16:00:00Z"))).toEqual({ released: 0, total: 0, nextAt: null });
  });
});
