import { pageLoad } from "../content";

/**
 * A page whose code is a chunk of its own could not be loaded (offline, or a deploy replaced the
 * files): it says so and offers to try again. A component module of its own, so the modules that
 * load chunks (route-chunks.tsx, which main.tsx imports) do not import the copy (README
 * "Development": a copy edit then hot-updates this component instead of reloading the page).
 */
export function LoadFailed({ onRetry, className }: { onRetry: () => void; className?: string }) {
  return (
    <div className={className} role="alert">
      <p>{pageLoad.failed}</p>
      <button type="button" className="button" onClick={onRetry}>
        {pageLoad.retry}
      </button>
    </div>
  );
}
