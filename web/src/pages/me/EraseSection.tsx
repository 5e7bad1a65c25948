import type { MeAnswer } from "@shared/me";
import { ME_TEXT } from "./content";
import type { MyPlace } from "./use-my-place";

/**
 * "Delete everything": a button that opens the confirmation, where the joiner types their own
 * address again (focus moves to the field, and back to the button on Cancel); a mismatch is
 * said at the field. The page's state (./use-my-place.ts) runs the erasure.
 */
export function EraseSection({ me, place, ids }: { me: MeAnswer; place: MyPlace; ids: string }) {
  const { busy, refs, erasure, focusAfterRender } = place;
  const eraseErrorId = `${ids}erase-error`;
  return (
    <section className="me__section me__section--danger" aria-labelledby={`${ids}erase`}>
      <h2 id={`${ids}erase`}>{ME_TEXT.erase.heading}</h2>
      <p>{ME_TEXT.erase.text}</p>
      {erasure.open ? (
        <form className="me__erase" onSubmit={(event) => place.actions.erase(event, me.email)} noValidate>
          <label htmlFor={`${ids}erase-field`}>{ME_TEXT.erase.fieldLabel(me.email)}</label>
          <input
            ref={refs.eraseField}
            id={`${ids}erase-field`}
            className="input"
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={erasure.typed}
            onChange={(event) => {
              erasure.setTyped(event.target.value);
              erasure.setMismatch(false);
            }}
            aria-invalid={erasure.mismatch || undefined}
            aria-describedby={eraseErrorId}
            disabled={busy === "erase"}
          />
          <p id={eraseErrorId} className="message message--error" role="alert">
            {erasure.mismatch ? ME_TEXT.erase.mismatch : place.errorIn("erase")}
          </p>
          <div className="me__buttons">
            <button type="submit" className="button button--danger" disabled={busy !== null}>
              {busy === "erase" ? ME_TEXT.erase.deleting : ME_TEXT.erase.confirm}
            </button>
            <button
              type="button"
              className="button"
              disabled={busy === "erase"}
              onClick={() => {
                erasure.set(false);
                erasure.setTyped("");
                erasure.setMismatch(false);
                focusAfterRender(refs.eraseButton);
              }}
            >
              {ME_TEXT.erase.cancel}
            </button>
          </div>
        </form>
      ) : (
        <button
          ref={refs.eraseButton}
          type="button"
          className="button button--danger"
          disabled={busy !== null}
          onClick={() => {
            erasure.set(true);
            place.clearNotice();
            focusAfterRender(refs.eraseField);
          }}
        >
          {ME_TEXT.erase.open}
        </button>
      )}
    </section>
  );
}
