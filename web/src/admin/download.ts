/**
 * Saves a file the console fetched (with the operator's token, which a plain link could not
 * send): an object URL for the blob, followed by a temporary <a download>. The URL is revoked
 * a little later, once the browser has started reading it.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}

const REVOKE_AFTER_MS = 10_000;
