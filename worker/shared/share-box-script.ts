/**
 * The confirmation page's one script (worker/features/waitlist/confirm-page.ts), written here as TypeScript so
 * it is type-checked against the DOM, and sent inline as its compiled text
 * (Function.prototype.toString), allowed by the CSP hash of exactly that text. The page works
 * without it: the link can be selected in its field and the share links are plain links; the
 * script only adds what needs it, each button shown once it can work:
 *
 * - Copy: puts the link on the clipboard and says so (or, where the browser refuses, selects it
 *   and says how to copy it);
 * - Share: the Web Share API, only where the browser has it (phones, some desktops).
 *
 * It must stand alone: it reads nothing from its module (only its argument, given as JSON), and
 * names no function of its own (the worker's bundler would wrap a named one in a helper that
 * the page does not have), only anonymous callbacks.
 */

/** What the script says, given as its argument. */
export type ShareBoxWords = { copied: string; copyFailed: string };

/** The elements it looks for: the box, the link's field, the buttons it shows, the status line. */
export const SHARE_BOX_HOOKS = {
  box: "data-share-box",
  link: "data-share-link",
  copy: "data-share-copy",
  share: "data-share-native",
  status: "data-share-status",
} as const;

export function shareBoxScript(words: ShareBoxWords): void {
  const box = document.querySelector("[data-share-box]");
  if (!box) return;
  const input = box.querySelector<HTMLInputElement | HTMLTextAreaElement>("[data-share-link]");
  const copy = box.querySelector<HTMLButtonElement>("[data-share-copy]");
  const share = box.querySelector<HTMLButtonElement>("[data-share-native]");
  const status = box.querySelector<HTMLElement>("[data-share-status]");
  if (!input || !copy || !share || !status) return;

  copy.hidden = false;
  copy.addEventListener("click", () => {
    input.select();
    const written = navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject(new Error("no clipboard"));
    written.then(
      () => {
        status.textContent = words.copied;
      },
      () => {
        input.focus();
        input.select();
        status.textContent = words.copyFailed;
      },
    );
  });

  if (typeof navigator.share !== "function") return;
  share.hidden = false;
  share.addEventListener("click", () => {
    // A dismissed share sheet rejects: nothing to say.
    navigator.share({ title: document.title, text: share.dataset.text ?? "", url: input.value }).catch(() => undefined);
  });
}
