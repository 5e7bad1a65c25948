import { Fragment } from "react";

/**
 * An e-mail address that wraps, when its column is narrow, before its "@" and after a dot (then
 * a hyphen, as text does), rather than letter by letter: "ringleader.max" / "@mailnest." /
 * "example". Only a piece longer than its line still breaks inside (the cell's overflow-wrap).
 */
export function Address({ email }: { email: string }) {
  const pieces = email.split(/(?=@)|(?<=\.)/);
  return (
    <>
      {pieces.map((piece, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed string, in order.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </>
  );
}
