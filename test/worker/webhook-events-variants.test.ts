/**
 * Issue 25 §2 with issue 23's rule, for every spelling of an address: a contact message written
 * from a variant (a +tag, Gmail's dots, another case) of the address of a parent a child's request
 * waits for, of an entry on behalf of a child, or of a teenager's own entry stores no
 * contact.received (record.ts noChildBehind compares the canonical address and the mailbox key, as
 * the parental requests' rules do). An adult's own variant still does.
 */
import { describe, expect, it } from "vitest";
import { joinOnBehalfOfChild } from "../../worker/features/waitlist";
import { capturingQueue } from "../support/joins";
import { addEndpoint, kicks, rows } from "../support/webhook-events";
import { postJson, uniqueEmail } from "../support/worker";
import { ask, requestOf } from "./parents-support";

const quiet = () => ({ MAIL_QUEUE: capturingQueue().binding });

/** The contact.received events whose payload names `email` exactly as written. */
const contactEventsFrom = async (email: string) => {
  expect((await postJson("/api/forms/contact", { name: "P", email, message: "About my child" }, quiet())).status).toBe(201);
  return rows(
    "select id from hwh_webhook_events where type = 'contact.received' and json_extract(payload, '$.email') in (?, ?)",
    email,
    email.toLowerCase(),
  );
};

/** A unique local part, for addresses at gmail.com. */
const unique = (tag: string) => uniqueEmail(tag).split("@")[0]!.replace(/-/g, "");

describe("variants of a child's or a waiting parent's address", () => {
  it("a parent a child's request waits for writes from parent.one+kids@, another case, or Gmail's dots: no contact.received", async () => {
    await addEndpoint("variants-contacts", ["contact.received"]);
    const local = unique("parentone");
    const parent = `${local.slice(0, 6)}.${local.slice(6)}@gmail.com`;
    await ask(parent);
    await requestOf(parent);
    for (const variant of [`${local}+kids@gmail.com`, parent.toUpperCase(), `${local.slice(0, 3)}.${local.slice(3)}@googlemail.com`]) {
      expect(await contactEventsFrom(variant), variant).toEqual([]);
    }
  });

  it("an entry on behalf of a child: its +tag and upper-case variants store no contact.received", async () => {
    await addEndpoint("variants-behalf", ["contact.received"]);
    const parent = uniqueEmail("parent.one");
    const deps = kicks(quiet()).deps();
    expect(
      await joinOnBehalfOfChild(deps, parent, { band: "13_15", country: "GB", consentAt: new Date(), origin: "http://localhost" }),
    ).toBe("joined");
    const [name, domain] = parent.split("@");
    for (const variant of [`${name}+kids@${domain}`, parent.toUpperCase()]) {
      expect(await contactEventsFrom(variant), variant).toEqual([]);
    }
  });

  it("a teenager's own entry (band 16_17): its variants store no contact.received; an adult's own variant does", async () => {
    await addEndpoint("variants-teen", ["contact.received"]);
    const teen = uniqueEmail("teen");
    const sixteen = { birth_month: 1, birth_year: new Date().getUTCFullYear() - 16 };
    expect((await postJson("/api/waitlist", { email: teen, ...sixteen }, quiet())).status).toBe(201);
    const [name, domain] = teen.split("@");
    expect(await contactEventsFrom(`${name}+school@${domain}`)).toEqual([]);
    const adult = uniqueEmail("adult");
    const thirty = { birth_month: 1, birth_year: new Date().getUTCFullYear() - 30 };
    expect((await postJson("/api/waitlist", { email: adult, ...thirty }, quiet())).status).toBe(201);
    const [adultName, adultDomain] = adult.split("@");
    expect(await contactEventsFrom(`${adultName}+news@${adultDomain}`)).toHaveLength(1);
  });
});
