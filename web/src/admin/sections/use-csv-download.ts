import { useState } from "react";
import type { CsvFile } from "../api";
import { admin } from "../content";
import { saveFile } from "../download";

/**
 * "Download CSV": fetches the whole export with the operator's token (a plain link could not
 * send it) and saves it, saying meanwhile that the file is being prepared, then its name.
 */
export function useCsvDownload(download: () => Promise<CsvFile>, report: (failure: unknown) => string | null) {
  const text = admin.table;
  const [downloading, setDownloading] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function start() {
    setDownloading(true);
    setStatus(text.downloading);
    setError(null);
    try {
      const file = await download();
      saveFile(file.blob, file.fileName);
      setStatus(text.downloaded(file.fileName));
    } catch (failure) {
      setStatus(null);
      setError(report(failure));
    } finally {
      setDownloading(false);
    }
  }

  return { downloading, status, error, start };
}
