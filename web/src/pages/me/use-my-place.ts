import { birthProblemMessage, isBirthProblem, readBirthAnswer } from "@shared/age";
import type { MeAnswer } from "@shared/me";
import { type FormEvent, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { saveFile } from "../../admin/download";
import { signOut } from "../../admin/session";
import type { BirthField } from "../../components/AgeQuestion";
import { useMounted } from "../../hooks/mounted";
import { type Erased, type MeApi, MeApiError } from "./api";
import { ME_TEXT } from "./content";

/** What the page shows under its heading (the shell's, ../MyPlacePage.tsx). */
export type View =
  | { kind: "loading" }
  | { kind: "loaded"; me: MeAnswer }
  | { kind: "loadFailed"; message: string }
  /** The sign-in stopped being valid while the page was open. */
  | { kind: "sessionEnded" };

/** A request in flight, by what it does (its button says so; the others wait). */
export type Busy = null | "join" | "resend" | "leave" | "subscription" | "data" | "erase";

/** Why the one-click join did not happen: the answer refused at a select, or a parent must decide first. */
export type JoinProblem = { kind: "birth"; field: BirthField; message: string } | { kind: "parentNeeded" };

/** Where a message goes: under the waitlist's actions, the e-mail subscription, the data download, the deletion form. */
type Area = "waitlist" | "subscription" | "data" | "erase";
type Notice = { area: Area; kind: "success" | "error"; text: string };

/**
 * The state of a signed-in "My place" and what it does: it loads the joiner's answer, runs one
 * request at a time (join, resend, leave, the subscription, the data download, the erasure), says
 * what each came to in its own area, and moves focus to what a change brought (an element the
 * next render puts in the page). The sections (./StatusSection.tsx and the others) only show it.
 */
export function useMyPlace(api: MeApi, onErased: (why: Erased) => void) {
  const [view, setView] = useState<View>({ kind: "loading" });
  const [busy, setBusy] = useState<Busy>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [typed, setTyped] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const [joinProblem, setJoinProblem] = useState<JoinProblem | null>(null);
  const isMounted = useMounted();

  const refs = {
    statusHeading: useRef<HTMLHeadingElement>(null),
    leaveButton: useRef<HTMLButtonElement>(null),
    leaveQuestion: useRef<HTMLParagraphElement>(null),
    eraseButton: useRef<HTMLButtonElement>(null),
    eraseField: useRef<HTMLInputElement>(null),
    subscriptionButton: useRef<HTMLButtonElement>(null),
    subscriptionSaid: useRef<HTMLParagraphElement>(null),
    birthMonth: useRef<HTMLSelectElement>(null),
    birthYear: useRef<HTMLSelectElement>(null),
    parentNeeded: useRef<HTMLDivElement>(null),
  };
  /** Where focus goes after the next render (an element that render brings). */
  const pendingFocus = useRef<RefObject<HTMLElement | null> | null>(null);

  useEffect(() => {
    const target = pendingFocus.current?.current;
    if (!target || (target as HTMLButtonElement).disabled) return;
    pendingFocus.current = null;
    target.focus();
  });

  const focusAfterRender = (target: RefObject<HTMLElement | null>) => {
    pendingFocus.current = target;
  };

  const load = useCallback(async () => {
    setView({ kind: "loading" });
    try {
      const me = await api.me();
      if (isMounted()) setView({ kind: "loaded", me });
    } catch (error) {
      if (!isMounted()) return;
      if (error instanceof MeApiError && error.failure.kind === "signedOut") setView({ kind: "sessionEnded" });
      else setView({ kind: "loadFailed", message: messageOf(error, ME_TEXT.loadFailed) });
    }
  }, [api, isMounted]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs an action; its failure is said in `area` (a lost session shows the sign-in link instead). */
  async function run(action: Exclude<Busy, null>, area: Area, task: () => Promise<void>) {
    if (busy !== null) return;
    setBusy(action);
    setNotice(null);
    try {
      await task();
    } catch (error) {
      if (!isMounted()) return;
      if (error instanceof MeApiError && error.failure.kind === "signedOut") setView({ kind: "sessionEnded" });
      else setNotice({ area, kind: "error", text: messageOf(error, ME_TEXT.errors.server) });
    } finally {
      if (isMounted()) setBusy(null);
    }
  }

  /** A new answer from the waitlist's actions: shown, said, and focus on the status it changed. */
  function showAnswer(me: MeAnswer, text: string) {
    setView({ kind: "loaded", me });
    setNotice({ area: "waitlist", kind: "success", text });
    focusAfterRender(refs.statusHeading);
  }

  /**
   * The one-click join asks the age question first (issue 23): nothing is sent until it is
   * answered. A refused answer is said at its select (focus goes there); below the consent age the
   * page says a parent or guardian decides first, or (`signed_out`) that the child's sign-in is gone.
   */
  function join(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const birth = readBirthAnswer(data.get("birth_month") ?? "", data.get("birth_year") ?? "", new Date());
    const refuse = (problem: JoinProblem) => {
      setJoinProblem(problem);
      focusAfterRender(problem.kind === "birth" ? (problem.field === "birth_month" ? refs.birthMonth : refs.birthYear) : refs.parentNeeded);
    };
    if (isBirthProblem(birth)) return refuse({ kind: "birth", field: birth.field, message: birthProblemMessage(birth) });
    setJoinProblem(null);
    void run("join", "waitlist", async () => {
      try {
        const me = await api.join(birth);
        if (isMounted()) showAnswer(me, ME_TEXT.none.joined);
      } catch (error) {
        if (!(error instanceof MeApiError)) throw error;
        const { failure } = error;
        if (failure.kind === "birth") refuse({ kind: "birth", field: failure.field, message: failure.message });
        else if (failure.kind === "parentNeeded") refuse({ kind: "parentNeeded" });
        else if (failure.kind === "childErased") {
          await signOutHere();
          onErased("child");
        } else throw error;
      }
    });
  }

  const resend = () =>
    run("resend", "waitlist", async () => {
      try {
        await api.resendConfirmation();
        if (isMounted()) setNotice({ area: "waitlist", kind: "success", text: ME_TEXT.pending.resent });
      } catch (error) {
        if (!(error instanceof MeApiError && error.failure.kind === "notPending")) throw error;
        // Confirmed meanwhile (the e-mail's link, another tab): show where the entry stands now.
        const me = await api.me();
        if (isMounted()) showAnswer(me, ME_TEXT.pending.alreadyConfirmed);
      }
    });

  const leave = () =>
    run("leave", "waitlist", async () => {
      const me = await api.leave();
      if (!isMounted()) return;
      setLeaving(false);
      showAnswer(me, ME_TEXT.leave.left);
    });

  const setSubscribed = (subscribed: boolean) => {
    // The button is disabled while the request runs, which drops focus to the page: it comes
    // back to the button (a failure: its alert is read), or to what was done (below).
    focusAfterRender(refs.subscriptionButton);
    return run("subscription", "subscription", async () => {
      const me = await api.setSubscribed(subscribed);
      if (!isMounted()) return;
      setView({ kind: "loaded", me });
      const t = ME_TEXT.subscription;
      const text = !subscribed ? t.unsubscribed : me.invited_at ? t.invited.resubscribed : t.resubscribed;
      setNotice({ area: "subscription", kind: "success", text });
      focusAfterRender(refs.subscriptionSaid);
    });
  };

  const download = () =>
    run("data", "data", async () => {
      const file = await api.data();
      saveFile(file.blob, file.fileName);
      if (isMounted()) setNotice({ area: "data", kind: "success", text: ME_TEXT.data.downloaded });
    });

  function erase(event: FormEvent<HTMLFormElement>, email: string) {
    event.preventDefault();
    // The same address, however it was typed (the server folds it the same way).
    if (typed.trim().toLowerCase() !== email.toLowerCase()) {
      setMismatch(true);
      refs.eraseField.current?.focus();
      return;
    }
    setMismatch(false);
    void run("erase", "erase", async () => {
      try {
        await api.erase(typed.trim());
      } catch (error) {
        if (!(error instanceof MeApiError && error.failure.kind === "mismatch")) throw error;
        if (isMounted()) {
          setMismatch(true);
          focusAfterRender(refs.eraseField);
        }
        return;
      }
      await signOutHere();
      onErased("self");
    });
  }

  const noticeIn = (area: Area, kind: Notice["kind"]) => (notice?.area === area && notice.kind === kind ? notice.text : "");

  return {
    view,
    busy,
    load,
    refs,
    focusAfterRender,
    /** What an area's last action said, by kind ("" when nothing). */
    successIn: (area: Area) => noticeIn(area, "success"),
    errorIn: (area: Area) => noticeIn(area, "error"),
    clearNotice: () => setNotice(null),
    actions: { join, resend, leave, setSubscribed, download, erase },
    /** What the join's age question came to: an answer refused at its select, or a parent must decide. */
    joinProblem,
    leaving: { open: leaving, set: setLeaving },
    erasure: { open: erasing, set: setErasing, typed, setTyped, mismatch, setMismatch },
  };
}

export type MyPlace = ReturnType<typeof useMyPlace>;

/** When an invite wave drew the entry (null: not invited): its place and the line-jumping pitch are over. */
export function invitedAt(me: MeAnswer): string | null {
  return me.status === "confirmed" ? me.invited_at : null;
}

/** The user is gone on the server, so is the session: ended on this device too (local: removed though the server cannot revoke it). */
async function signOutHere(): Promise<void> {
  await signOut().catch((error: unknown) => console.error("Signing out after the erasure failed.", error));
}

/** The message of a failed call: the API error's, or `fallback` for anything unexpected. */
function messageOf(error: unknown, fallback: string): string {
  if (error instanceof MeApiError && error.failure.kind === "error") return error.failure.message;
  console.error(error);
  return fallback;
}
